/**
 * Test support for controls without a DOM: hook-free components are called as functions and their
 * element trees searched, so a test can reach a button's or select's handler and call it.
 */
import { isValidElement, type ReactElement, type ReactNode } from 'react';

type AnyProps = Record<string, unknown> & { children?: ReactNode };

/** Every host element (`<button>`, `<select>`, …) under `node`, expanding function components by calling them (they must not use hooks). */
export function hostElements(node: ReactNode): ReactElement<AnyProps>[] {
  const out: ReactElement<AnyProps>[] = [];
  const walk = (n: ReactNode): void => {
    if (Array.isArray(n)) {
      n.forEach(walk);
      return;
    }
    if (!isValidElement<AnyProps>(n)) return;
    if (typeof n.type === 'function') {
      walk((n.type as (p: AnyProps) => ReactNode)(n.props));
      return;
    }
    if (typeof n.type === 'string') out.push(n);
    walk(n.props.children);
  };
  walk(node);
  return out;
}

/** The host elements of `type` whose props match `where`. */
export function findElements(
  node: ReactNode,
  type: string,
  where: (props: AnyProps) => boolean = () => true,
): ReactElement<AnyProps>[] {
  return hostElements(node).filter(e => e.type === type && where(e.props));
}
