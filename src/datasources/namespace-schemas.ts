// REST shapes that groups and projects share, in a module of their own so that neither data source
// imports the other.

/** A key/value pair administrators attach to groups and projects (`with_custom_attributes`). */
export interface CustomAttributeSchema {
  key: string;
  value: string;
}

/** One entry of `shared_with_groups`: a group a group or project is shared with. */
export interface GroupShareSchema {
  group_id: number;
  group_name?: string;
  group_full_path?: string;
  group_access_level?: number;
  expires_at?: string | null;
}

/** The storage a group or project takes, by kind (REST `statistics`), in bytes. */
export interface StorageStatisticsSchema {
  storage_size?: number;
  repository_size?: number;
  wiki_size?: number;
  lfs_objects_size?: number;
  job_artifacts_size?: number;
  pipeline_artifacts_size?: number;
  packages_size?: number;
  snippets_size?: number;
  uploads_size?: number;
}
