// GET /issues, /groups/:id/issues, /projects/:id/issues, and the single-issue reads
// (rest-v4-api.md "Issues").
import type { Issue } from '../../data/model.js';
import { issueEntity, type IssueReadFrom } from '../../entities/issues.js';
import { notFound, unauthorized } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import { visibleGroup } from '../lookup.js';
import { issuesProject, requireAdmin, visibleIssue } from './access.js';
import { findIssues, groupOnlyParams, instanceOnlyParams, ISSUE_LIST_RULES, issueListParams, type IssueListLevel, type IssueListParams } from './finder.js';

function answer(ctx: RequestContext<IssueListParams>, level: IssueListLevel, candidates: Iterable<Issue>, from: IssueReadFrom) {
  const issues = findIssues(ctx.state, ctx.user, level, candidates, ctx.params);
  const labelDetails = ctx.params.with_labels_details;
  // Project lists also offer keyset pagination (rest-conventions §4), so they cap offsets.
  const options = level === 'project' ? { offsetCap: { typeName: 'Issue' } } : {};
  return paginate(ctx, issues, (issue) => issueEntity(ctx, issue, { from, labelDetails }), options);
}

export function registerIssueListRoutes(router: Router): void {
  // Anonymous callers may list public issues only with scope=all (`authenticate! unless params[:scope] == 'all'`).
  router.get('/issues', { auth: 'optional', paginated: true, ...ISSUE_LIST_RULES, params: { ...issueListParams, ...instanceOnlyParams } }, (ctx) => {
    if (!ctx.user && ctx.params.scope !== 'all') throw unauthorized();
    return answer(ctx, 'instance', ctx.state.issues.values(), { kind: 'instance' });
  });

  // A group's issues include those of its subgroups' projects.
  router.get(
    '/groups/:id/issues',
    { auth: 'optional', paginated: true, ...ISSUE_LIST_RULES, params: { id: p.string().required(), ...issueListParams, ...groupOnlyParams } },
    (ctx) => {
      const group = visibleGroup(ctx, ctx.params.id);
      const groupIds = new Set(ctx.state.groupSubtree(group).map((g) => g.id));
      const inGroup = [...ctx.state.issues.values()].filter((issue) => {
        const project = ctx.state.projects.get(issue.projectId);
        return project?.namespace.kind === 'group' && groupIds.has(project.namespace.groupId);
      });
      return answer(ctx, 'group', inGroup, { kind: 'group', groupId: group.id });
    },
  );

  router.get('/projects/:id/issues', { auth: 'optional', paginated: true, ...ISSUE_LIST_RULES, params: { id: p.string().required(), ...issueListParams } }, (ctx) => {
    const project = issuesProject(ctx, ctx.params.id);
    const ofProject = [...ctx.state.issues.values()].filter((issue) => issue.projectId === project.id);
    return answer(ctx, 'project', ofProject, { kind: 'project' });
  });

  router.get('/projects/:id/issues/:issue_iid', { auth: 'optional', params: { id: p.string().required(), issue_iid: p.integer().required() } }, (ctx) => {
    const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
    return ok(issueEntity(ctx, issue, { from: { kind: 'project' }, single: true }));
  });

  // Administrators only (rest-v4-api.md "Authentication").
  router.get('/issues/:id', { auth: 'required', params: { id: p.integer().required() } }, (ctx) => {
    requireAdmin(ctx);
    const issue = ctx.state.issues.get(ctx.params.id);
    if (!issue) throw notFound('Issue');
    return ok(issueEntity(ctx, issue, { from: { kind: 'instance' }, single: true }));
  });
}
