import type { ConnectionArgs } from '../connections/window.js';
import { pagesCovering, windowFor } from '../connections/window.js';

/** The most REST calls one connection makes: `last` without `before` reads the head, then up to two pages. */
export const MAX_WINDOW_CALLS = 3;

/**
 * What one connection costs, from its paging arguments, worked out by the very functions the
 * connection uses (connections/window.ts): the REST pages that cover the window, and how many items
 * it can hold. Arguments the connection would refuse cost the most a window can, so a refusal
 * that comes late (after a parent record was read) is still covered.
 */
export function windowCost(args: ConnectionArgs): { calls: number; items: number } {
  try {
    const window = windowFor(args);
    if (window.end === null) return { calls: MAX_WINDOW_CALLS, items: window.tailSize };
    return { calls: pagesCovering(window.start, window.end).length, items: window.end - window.start };
  } catch {
    return { calls: MAX_WINDOW_CALLS, items: 0 };
  }
}
