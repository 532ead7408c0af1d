// Model validations of Ci::Runner, answered with the §6.3 body {"message": {"<field>": [...]}}.
import { validationError } from '../../http/errors.js';

export interface RunnerAttributes {
  tagList: string[];
  runUntagged: boolean;
  maximumTimeout: number | null;
  maintenanceNote: string | null;
}

export function validateRunner(attrs: RunnerAttributes): void {
  const errors: Record<string, string[]> = {};
  if (attrs.maximumTimeout !== null && attrs.maximumTimeout < 600) {
    errors['maximum_timeout'] = ['needs to be at least 10 minutes'];
  }
  if (!attrs.runUntagged && attrs.tagList.length === 0) {
    errors['tags_list'] = ['can not be empty when runner is not allowed to pick untagged jobs'];
  }
  if (attrs.maintenanceNote !== null && attrs.maintenanceNote.length > 1024) {
    errors['maintenance_note'] = ['is too long (maximum is 1024 characters)'];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
