// Emoji reactions on an issue and on its notes (GitLab's REST "Emoji reactions"): list, award and
// take back. Whoever may read the issue sees its awards; anyone signed in who may read it awards;
// only the award's own user or an administrator removes it. A second award of the same name by
// the same user is refused as GitLab's AwardEmoji validation does, with a 404 (lib/api/award_emoji.rb).
import type { AwardEmoji } from '../../data/model.js';
import { awardEmojiEntity, type Awardable } from '../../entities/award-emoji.js';
import { notFound, unauthorized } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created, noContent, ok } from '../../http/response.js';
import type { RequestContext, Router } from '../../http/router.js';
import type { ParamSpecs, ParamsOf } from '../../http/params.js';
import { visibleIssue } from './access.js';
import { noteOfIssue } from './notes.js';

type IssueParams = { id: string; issue_iid: number };

/** GitLab's emoji names are lower-case words of letters, digits, `_`, `+` and `-`. */
const EMOJI_NAME = /^[a-z0-9_+-]{1,64}$/;

/** The awards of the route's awardable, its REST identity, and a way to store a changed list. */
interface AwardTarget {
  awardable: Awardable;
  awards: AwardEmoji[];
  save(awards: AwardEmoji[]): void;
}

function issueTarget(ctx: RequestContext<IssueParams>): AwardTarget {
  const { issue } = visibleIssue(ctx, ctx.params.id, ctx.params.issue_iid);
  return { awardable: { type: 'Issue', id: issue.id }, awards: issue.awards, save: (awards) => (issue.awards = awards) };
}

function noteTarget(ctx: RequestContext<IssueParams & { note_id: number }>): AwardTarget {
  const { note } = noteOfIssue(ctx);
  return { awardable: { type: 'Note', id: note.id }, awards: note.awards ?? [], save: (awards) => (note.awards = awards) };
}

function registerAwardRoutes<S extends ParamSpecs>(router: Router, path: string, params: S, targetOf: (ctx: RequestContext<ParamsOf<S>>) => AwardTarget): void {
  const awardParams = { ...params, award_id: p.integer().required() };

  router.get(path, { auth: 'optional', paginated: true, params }, (ctx) => {
    const target = targetOf(ctx);
    return paginate(ctx, target.awards, (award) => awardEmojiEntity(ctx, award, target.awardable));
  });

  router.get(`${path}/:award_id`, { auth: 'optional', params: awardParams }, (ctx) => {
    const target = targetOf(ctx);
    const award = target.awards.find((candidate) => candidate.id === ctx.params.award_id);
    if (!award) throw notFound('Award Emoji');
    return ok(awardEmojiEntity(ctx, award, target.awardable));
  });

  router.post(path, { auth: 'required', params: { ...params, name: p.string().required() } }, (ctx) => {
    const target = targetOf(ctx);
    const user = ctx.user!;
    const name: string = String(ctx.params.name);
    if (!EMOJI_NAME.test(name)) throw notFound('Award Emoji Name is not a valid emoji name');
    if (target.awards.some((award) => award.userId === user.id && award.name === name)) throw notFound('Award Emoji Name has already been taken');
    const award: AwardEmoji = { id: ctx.state.nextAwardEmojiId(), userId: user.id, name, createdAt: ctx.state.now.toISOString() };
    target.save([...target.awards, award]);
    return created(awardEmojiEntity(ctx, award, target.awardable));
  });

  router.delete(`${path}/:award_id`, { auth: 'required', params: awardParams }, (ctx) => {
    const target = targetOf(ctx);
    const award = target.awards.find((candidate) => candidate.id === ctx.params.award_id);
    if (!award) throw notFound('Award Emoji');
    if (award.userId !== ctx.user!.id && !ctx.user!.isAdmin) throw unauthorized();
    target.save(target.awards.filter((candidate) => candidate !== award));
    return noContent();
  });
}

export function registerIssueAwardEmojiRoutes(router: Router): void {
  const issueParams = { id: p.string().required(), issue_iid: p.integer().required() };
  registerAwardRoutes(router, '/projects/:id/issues/:issue_iid/award_emoji', issueParams, issueTarget);
  registerAwardRoutes(router, '/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', { ...issueParams, note_id: p.integer().required() }, noteTarget);
}
