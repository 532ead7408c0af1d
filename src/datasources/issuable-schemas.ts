// REST shapes that issues and merge requests share (both are issuables in GitLab), in a module of
// their own so that neither data source imports the other.

/** A milestone as issues and boards embed it (boards' lists and reads give only id and title). */
export interface MilestoneSchema {
  id: number;
  iid?: number;
  project_id?: number;
  group_id?: number;
  title?: string;
  description?: string | null;
  state?: string;
  created_at?: string;
  updated_at?: string;
  due_date?: string | null;
  start_date?: string | null;
  closed_at?: string | null;
  /** GitLab's Milestone#expired?, by the server's clock (milestone lists and issues' milestones). */
  expired?: boolean;
  web_url?: string;
}

/** rest-v4-api.md "Time stats". */
export interface TimeStatsSchema {
  time_estimate?: number;
  total_time_spent?: number;
  human_time_estimate?: string | null;
  human_total_time_spent?: string | null;
}

/** `short`, `relative` and `full` references of an issue or merge request. */
export interface ReferencesSchema {
  short?: string;
  relative?: string;
  full?: string;
}

export interface TaskCompletionStatusSchema {
  count?: number;
  completed_count?: number;
}
