/**
 * The test agent: in test mode only (the host marks the root element with `data-test-agent`), it
 * answers the extension-host tests' `test/*` messages by reading the `data-*` facts views put on
 * their elements and by dispatching real DOM events, so a test drives the same code paths a user's
 * click, drag or key press does. Views have no test-only code path; this file is their only reader.
 */
import type { ElementFacts, TestAgentRequest, TestAgentResult } from '../../src/shared/test-protocol';

const DEFAULT_LIMIT = 1000;
const TEXT_LIMIT = 500;

type Post = (m: TestAgentResult) => void;

/** Starts answering test requests when `root` asks for the agent; returns whether it started. */
export function startTestAgent(root: HTMLElement, post: Post): boolean {
  if (root.dataset.testAgent !== 'on') return false;
  window.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as TestAgentRequest | undefined;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string' || !m.type.startsWith('test/')) return;
    if (m.type === ('test/result' as string)) return;
    void answer(m).then(post);
  });
  return true;
}

/** What an element says about itself. */
export function factsOf(el: Element): ElementFacts {
  const data: Record<string, string> = {};
  for (const a of Array.from(el.attributes)) if (a.name.startsWith('data-')) data[a.name.slice(5)] = a.value;
  const r = el.getBoundingClientRect();
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  return {
    data,
    text: text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}…` : text,
    box: { x: r.x, y: r.y, width: r.width, height: r.height },
  };
}

/** One animation frame: the page renders what the last event changed before the next event of a gesture. */
const nextFrame = () => new Promise<void>(resolve => setTimeout(resolve, 16));

export async function answer(m: TestAgentRequest): Promise<TestAgentResult> {
  try {
    switch (m.type) {
      case 'test/query':
        return {
          type: 'test/result',
          id: m.id,
          elements: Array.from(document.querySelectorAll(m.selector))
            .slice(0, m.limit ?? DEFAULT_LIMIT)
            .map(factsOf),
        };
      case 'test/click': {
        const el = nth(m.selector, m.index ?? 0);
        click(el, { button: m.button ?? 'left', shiftKey: m.shiftKey ?? false, detail: m.detail ?? 1 });
        return { type: 'test/result', id: m.id, elements: [factsOf(el)] };
      }
      case 'test/input': {
        const el = nth(m.selector, 0);
        setValue(el, m.value);
        return { type: 'test/result', id: m.id, elements: [factsOf(el)] };
      }
      case 'test/key': {
        const target: Element | Document = m.selector ? nth(m.selector, 0) : document;
        for (const type of ['keydown', 'keyup'])
          target.dispatchEvent(new KeyboardEvent(type, { key: m.key, bubbles: true, cancelable: true }));
        return { type: 'test/result', id: m.id, elements: target instanceof Element ? [factsOf(target)] : [] };
      }
      case 'test/pointer': {
        const el = nth(m.selector, 0);
        const box = el.getBoundingClientRect();
        for (const step of m.steps) {
          await nextFrame();
          const init: PointerEventInit = {
            clientX: box.x + step.x,
            clientY: box.y + step.y,
            bubbles: true,
            cancelable: true,
            shiftKey: step.shiftKey ?? false,
            button: 0,
            buttons: step.type === 'pointerup' ? 0 : 1,
            pointerId: 1,
            pointerType: 'mouse',
            isPrimary: true,
          };
          if (step.type === 'click' || step.type === 'dblclick')
            el.dispatchEvent(new MouseEvent(step.type, { ...init, detail: step.type === 'dblclick' ? 2 : 1 }));
          else el.dispatchEvent(new PointerEvent(step.type, init));
        }
        return { type: 'test/result', id: m.id, elements: [factsOf(el)] };
      }
    }
  } catch (e) {
    return { type: 'test/result', id: m.id, error: (e as Error).message };
  }
}

function nth(selector: string, index: number): Element {
  const all = document.querySelectorAll(selector);
  const el = all[index];
  if (!el) throw new Error(`no element ${index} of ${all.length} matching ${selector}`);
  return el;
}

/** The events a real click makes, at the element's centre. */
function click(el: Element, o: { button: 'left' | 'right'; shiftKey: boolean; detail: number }): void {
  const r = el.getBoundingClientRect();
  const init: MouseEventInit = {
    clientX: r.x + r.width / 2,
    clientY: r.y + r.height / 2,
    bubbles: true,
    cancelable: true,
    shiftKey: o.shiftKey,
    button: o.button === 'right' ? 2 : 0,
  };
  if (o.button === 'right') {
    el.dispatchEvent(new MouseEvent('contextmenu', init));
    return;
  }
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup'])
    el.dispatchEvent(type.startsWith('pointer') ? new PointerEvent(type, init) : new MouseEvent(type, init));
  for (let d = 1; d <= o.detail; d++) el.dispatchEvent(new MouseEvent('click', { ...init, detail: d }));
  if (o.detail >= 2) el.dispatchEvent(new MouseEvent('dblclick', { ...init, detail: 2 }));
}

/** Sets a form control's value through the element's own setter (so React sees the change) and fires input and change. */
function setValue(el: Element, value: string): void {
  const proto =
    el instanceof HTMLSelectElement
      ? HTMLSelectElement.prototype
      : el instanceof HTMLTextAreaElement
        ? HTMLTextAreaElement.prototype
        : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (!setter) throw new Error(`${el.tagName} has no value`);
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
    // A click toggles it, as the user's would (and React listens to the click).
    if (el.checked !== (value === 'true')) el.click();
    return;
  }
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}
