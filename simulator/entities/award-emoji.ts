// An emoji reaction as REST's Entities::AwardEmoji presents it, with the basic user who gave it.
import type { AwardEmoji } from '../data/model.js';
import type { PresentContext } from './context.js';
import { userSummary } from './users.js';

/** What an award is on: REST names the awardable by its numeric id and class. */
export interface Awardable {
  type: 'Issue' | 'Note';
  id: number;
}

export function awardEmojiEntity(ctx: PresentContext, award: AwardEmoji, awardable: Awardable) {
  const user = ctx.state.users.get(award.userId);
  return {
    id: award.id,
    name: award.name,
    user: user ? userSummary(ctx, user) : null,
    created_at: award.createdAt,
    updated_at: award.createdAt,
    awardable_id: awardable.id,
    awardable_type: awardable.type,
  };
}
