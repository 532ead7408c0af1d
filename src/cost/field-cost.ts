import type { RecordShape } from './shapes.js';

export type FieldArgs = Readonly<Record<string, unknown>>;

/** A count of REST calls or items: fixed, from the arguments, or that of the field's connection window. */
export type Count = number | 'window' | ((args: FieldArgs) => number);

/**
 * What resolving one field costs, per parent object, as the field declares it next to its
 * resolver (src/fields/declaration.ts). The estimate (estimate.ts) adds these up over a document.
 */
export interface FieldCost {
  /** REST calls the resolver itself makes. */
  calls?: Count;
  /** The calls are made only when the parent record lacks this key (otherwise it answers from it). */
  unlessParentHas?: string;
  /**
   * Keys of the parent the resolver reads, fetching a fuller record through a loader when the
   * parent lacks one. Reads of one parent through one loader share a single call with batching on.
   */
  reads?: readonly string[];
  /** The loader those reads go through; default the parent type's own full-record loader. */
  loader?: string;
  /** Most items of a list or connection result. */
  items?: Count;
  /** REST calls per item of the result (a list of look-ups). */
  callsPerItem?: number;
  /** The form of the records the field returns: what their own fields may cost. */
  returns?: FieldReturns;
}

/** One form, one chosen by the arguments, or one per type of an interface or union. */
export type FieldReturns = RecordShape | ((args: FieldArgs) => RecordShape) | Readonly<Record<string, RecordShape>>;

/**
 * How many items a REST array holds that is neither paginated nor bounded by REST (a commit's
 * parents, a deploy key's projects): REST's default page size. This is the estimate's one
 * assumption rather than a bound; the per-request cap on concurrent REST calls and the request
 * deadline still hold an operation that meets a longer array.
 */
export const UNBOUNDED_ARRAY_ITEMS = 20;

/** A paginated REST list as a connection: the window's pages, its items. */
export const restList = (returns?: RecordShape | ((args: FieldArgs) => RecordShape)): FieldCost => ({ calls: 'window', items: 'window', ...(returns ? { returns } : {}) });
/** One REST call (a single read or a write). */
export const oneCall = (returns?: FieldReturns): FieldCost => ({ calls: 1, ...(returns ? { returns } : {}) });
/** A field that only points at an embedded record: no call of its own. */
export const embedded = (returns: RecordShape): FieldCost => ({ returns });
