// Keeps the focus off the page's <body> after an action re-renders what was pressed: Pause turns into Resume, Sync is
// disabled while it runs, a form is replaced by the card it made. Elements that belong together carry
// `data-focus-group="<key>"` (a row, a card, a panel); when the focused control goes away or is disabled, the focus
// goes to the group's `[data-focus-landing]` or first enabled control, found by key if the group itself was redrawn;
// a control only disabled for a while (Sync while it runs) gets the focus back when it is enabled again.

const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]';

interface Pressed {
  element: HTMLElement;
  group: Element | null;
  /**
   * The group's key while the focus was in it: kept fresh while the focus stays (a form's key follows what is typed),
   * never taken from a redraw that dropped the focus (a row reused for another file would lead to that file).
   */
  key: string | null;
}

const keyOf = (group: Element | null): string | null => group?.getAttribute('data-focus-group') ?? null;

function canTakeFocus(element: Element | null | undefined): boolean {
  if (!(element instanceof HTMLElement) || !element.isConnected) return false;
  if ((element as HTMLButtonElement).disabled) return false;
  // jsdom has no checkVisibility: there everything in the document counts as shown.
  return typeof element.checkVisibility !== 'function' || element.checkVisibility();
}

/** On the page's body, or still on a control just disabled (Chromium moves it to the body only at its next frame). */
function focusLost(): boolean {
  const focused = document.activeElement;
  return focused === null || focused === document.body || (focused instanceof HTMLElement && !canTakeFocus(focused));
}

/** The group's landing, else its first control that can take the focus (a landing is focusable through tabindex="-1"). */
function placeIn(group: Element): HTMLElement | null {
  const landing = group.querySelector('[data-focus-landing]');
  if (landing instanceof HTMLElement && canTakeFocus(landing)) return landing;
  for (const candidate of group.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (canTakeFocus(candidate) && candidate.getAttribute('tabindex') !== '-1') return candidate;
  }
  return null;
}

function groupsByKey(root: Element, key: string): Element[] {
  return [...root.querySelectorAll('[data-focus-group]')].filter((group) => group.getAttribute('data-focus-group') === key);
}

/** A Svelte action for the window's root: watches the focus inside `root` and puts it back when it falls. */
export function keepFocus(root: HTMLElement): { destroy(): void } {
  let pressed: Pressed | null = null;
  /** A disabled control whose focus was parked in its group, until it is enabled again or the focus moves on. */
  let waiting: { control: HTMLElement; parkedOn: HTMLElement } | null = null;

  function onFocusIn(event: FocusEvent): void {
    if (!(event.target instanceof HTMLElement)) return;
    const group = event.target.closest('[data-focus-group]');
    pressed = { element: event.target, group, key: keyOf(group) };
  }

  function onFocusOut(event: FocusEvent): void {
    const left = event.target instanceof Element ? event.target : null;
    // Focus moved away by the person (a click on the page's background) is theirs to move: forget the control.
    queueMicrotask(() => {
      if (pressed?.element === left && canTakeFocus(left) && focusLost()) pressed = null;
      else restore();
    });
  }

  function restore(): void {
    if (waiting && document.activeElement !== waiting.parkedOn) waiting = null;
    if (waiting && canTakeFocus(waiting.control)) {
      waiting.control.focus({ focusVisible: true });
      waiting = null;
      return;
    }
    if (!pressed?.group || pressed.key === null) return;
    if (!focusLost()) {
      if (pressed.group.contains(document.activeElement)) pressed.key = keyOf(pressed.group) ?? pressed.key;
      return;
    }
    // A control that can still take the focus was left by the person (or is being left, mid-click): theirs to move.
    if (canTakeFocus(pressed.element)) return;
    const key = pressed.key;
    const groups = pressed.group.isConnected && keyOf(pressed.group) === key ? [pressed.group] : groupsByKey(root, key);
    for (const group of groups) {
      const place = placeIn(group);
      if (place) {
        const control = pressed.element;
        // Shown with its ring, as after a key press: the person must see where the focus went.
        place.focus({ focusVisible: true });
        if (control.isConnected) waiting = { control, parkedOn: place };
        return;
      }
    }
  }

  const observer = new MutationObserver(restore);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'data-focus-group'] });
  root.addEventListener('focusin', onFocusIn);
  root.addEventListener('focusout', onFocusOut);
  return {
    destroy(): void {
      observer.disconnect();
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('focusout', onFocusOut);
    },
  };
}
