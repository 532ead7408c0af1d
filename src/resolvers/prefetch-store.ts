// One request's store of REST pages sent ahead by the lookahead (lookahead.ts), kept apart from the
// lookahead so that the request context can own one without importing the resolvers' helpers.
import type { Page } from '../datasources/pagination.js';

/**
 * The pages the lookahead sent during one GraphQL request, until the child resolver takes them.
 * createContext makes one per request, so a page never reaches another request or credential.
 * Each page is taken once: two aliases asking the same page each had their own call before, and
 * each still has one.
 */
export class PrefetchStore {
  private readonly pages = new Map<string, Array<Promise<Page<unknown>>>>();

  put(key: string, page: Promise<Page<unknown>>): void {
    const queue = this.pages.get(key);
    if (queue) queue.push(page);
    else this.pages.set(key, [page]);
  }

  /** Lets go of every page not taken (its operations have their responses). */
  clear(): void {
    this.pages.clear();
  }

  take(key: string): Promise<Page<unknown>> | undefined {
    const queue = this.pages.get(key);
    const page = queue?.shift();
    if (queue?.length === 0) this.pages.delete(key);
    return page;
  }
}
