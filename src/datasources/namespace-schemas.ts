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
