/**
 * Test support beside element-tree.ts: the text of an element tree, and the one host element a
 * test is after (hook-free components are called as functions, as there).
 */
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { hostElements } from './element-tree';

type AnyProps = Record<string, unknown> & { children?: ReactNode };
export type Element = ReactElement<AnyProps>;

/** Text content of `node` and its descendants. */
export function textOf(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(c => textOf(c as ReactNode)).join('');
  if (!isValidElement<AnyProps>(node)) return '';
  if (typeof node.type === 'function') return textOf((node.type as (p: AnyProps) => ReactNode)(node.props));
  return textOf(node.props.children);
}

/** The one host element under `node` matching `pick`; throws when there is none or more than one. */
export function only(node: ReactNode, pick: (e: Element) => boolean, what: string): Element {
  const hits = hostElements(node).filter(pick);
  if (hits.length !== 1) throw new Error(`expected one ${what}, found ${hits.length}`);
  return hits[0]!;
}
