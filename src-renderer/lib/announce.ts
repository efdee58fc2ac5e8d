// The window's one polite live region (App.svelte renders it): says a result that lands away from the focus, such as
// a saved file or a sync's summary below the buttons.
export const ANNOUNCER_ID = 'announcer';

export function announce(text: string): void {
  const region = document.getElementById(ANNOUNCER_ID);
  if (!region) return;
  // Emptied first, then filled in a later task, so the same words said twice are heard twice.
  region.textContent = '';
  setTimeout(() => (region.textContent = text), 0);
}
