// The records GraphQL's Pipeline and DetailedStatus resolve from (codegen.ts maps the types to
// them). The generated resolver types import this module, so it imports only data sources.
import type { PipelineSchema } from '../datasources/pipelines.js';
import type { PipelineSummarySchema } from '../datasources/runners.js';

/** A pipeline as a job embeds it, with the path of its page (it needs the job's project). */
export type PipelineRecord = PipelineSummarySchema &
  Partial<PipelineSchema> & {
    /** The pipeline's path, set where the record lacks `web_url` (a job's pipeline). */
    path?: string | null;
  };

/** The fields of GraphQL's `DetailedStatus` the gateway serves. */
export interface DetailedStatusRecord {
  id: string;
  text: string;
  label: string;
  icon: string;
  group: string;
  tooltip: string;
  hasDetails: boolean;
  detailsPath: string | null;
}
