import type { MutationResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import type { GroupSchema } from '../../datasources/groups.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import { declared } from '../../fields/declaration.js';
import { refusalReasons } from '../refusals.js';
import { checkFullPath } from './Query.js';
import { GROUP_OF_NAMESPACE, PROJECT_LOADED } from '../../cost/shapes.js';
import { embedded } from '../../cost/field-cost.js';
import { recordField } from '../../fields/patterns.js';

function isProjectRecord(body: ProjectSchema | GroupSchema): body is ProjectSchema {
  return typeof (body as ProjectSchema).path_with_namespace === 'string';
}

/** The project's own namespace as a group record: any further field comes through the group loader. */
function groupOfNamespace(project: ProjectSchema): GroupSchema | null {
  const namespace = project.namespace;
  if (!namespace || namespace.kind !== 'group') return null;
  const group: GroupSchema = { id: namespace.id, full_path: namespace.full_path };
  if (namespace.name !== undefined) group.name = namespace.name;
  if (namespace.path !== undefined) group.path = namespace.path;
  return group;
}

const projectMutations: Pick<MutationResolvers, 'projectTransfer'> = {
  // When REST answers with the group instead of the project, the project is looked up at its new path.
  projectTransfer: declared(
    { calls: 2, rest: ['POST /groups/:id/projects/:project_id', 'GET /projects/:id'] },
    async (_parent, { input }, { api, loaders }) => {
      const projectPath = checkFullPath(input.projectPath, 'projectPath');
      const groupPath = checkFullPath(input.groupPath, 'groupPath');
      const clientMutationId = input.clientMutationId ?? null;
      let body: ProjectSchema | GroupSchema;
      try {
        body = await api.groups.transferProject(groupPath, projectPath);
      } catch (error) {
        const reasons = refusalReasons(error);
        if (reasons) return { clientMutationId, errors: reasons, project: null, group: null };
        throw error;
      }
      if (isProjectRecord(body)) {
        // rest-v4-api.md: REST answers with the moved project, a full record at its new path.
        loaders.project.clear({ id: body.id, path_with_namespace: projectPath });
        loaders.project.prime(body);
        return { clientMutationId, errors: [], project: body, group: groupOfNamespace(body) };
      }
      // GitLab's code answers with the group's detail instead; the project keeps its own path
      // segment, so its new full path is known and one look-up fetches it.
      const newPath = `${body.full_path ?? groupPath}/${projectPath.split('/').pop() ?? ''}`;
      const project = await loaders.project.load(newPath);
      loaders.project.clear({ id: project.id, path_with_namespace: projectPath });
      loaders.project.prime(project);
      return { clientMutationId, errors: [], project, group: body };
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Mutation: projectMutations, ProjectTransferPayload: { project: recordField(embedded(PROJECT_LOADED)), group: recordField(embedded(GROUP_OF_NAMESPACE)) } };
