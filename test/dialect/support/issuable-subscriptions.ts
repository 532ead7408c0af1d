import type { Client } from 'graphql-ws';
import { until } from '../../support/wait.js';

/** Documents in the style of GitLab's issue sidebar: named operations, fragments, GitLab's scalars. */
export const FRAGMENTS = {
  User: /* GraphQL */ `
    fragment User on User {
      id
      avatarUrl
      name
      username
      webUrl
      webPath
    }
  `,
  Label: /* GraphQL */ `
    fragment Label on Label {
      id
      title
      color
      description
    }
  `,
  MilestoneFragment: /* GraphQL */ `
    fragment MilestoneFragment on Milestone {
      id
      title
      webUrl: webPath
      state
      expired
    }
  `,
};

export const SUBSCRIPTIONS = {
  assignees: /* GraphQL */ `
    subscription issuableAssigneesUpdated($issuableId: IssuableID!) {
      issuableAssigneesUpdated(issuableId: $issuableId) {
        ... on Issue { id assignees { nodes { ...User } } }
      }
    }
  `,
  labels: /* GraphQL */ `
    subscription issuableLabelsUpdated($issuableId: IssuableID!) {
      issuableLabelsUpdated(issuableId: $issuableId) {
        ... on Issue { id labels { nodes { ...Label } } }
      }
    }
  `,
  milestone: /* GraphQL */ `
    subscription issuableMilestoneUpdated($issuableId: IssuableID!) {
      issuableMilestoneUpdated(issuableId: $issuableId) {
        ... on Issue { id attribute: milestone { ...MilestoneFragment } }
      }
    }
  `,
  dates: /* GraphQL */ `
    subscription issuableDatesUpdated($issuableId: IssuableID!) {
      issuableDatesUpdated(issuableId: $issuableId) {
        ... on Issue { id dueDate }
      }
    }
  `,
  title: /* GraphQL */ `
    subscription issuableTitleUpdated($issuableId: IssuableID!) {
      issuableTitleUpdated(issuableId: $issuableId) {
        ... on Issue { id title }
      }
    }
  `,
  description: /* GraphQL */ `
    subscription issuableDescriptionUpdated($issuableId: IssuableID!) {
      issuableDescriptionUpdated(issuableId: $issuableId) {
        ... on Issue { id description }
      }
    }
  `,
  timeTracking: /* GraphQL */ `
    subscription issuableTimeTrackingUpdated($issuableId: IssuableID!) {
      issuableTimeTrackingUpdated(issuableId: $issuableId) {
        ... on Issue { id humanTimeEstimate humanTotalTimeSpent timeEstimate totalTimeSpent }
      }
    }
  `,
} as const;

export type Aspect = keyof typeof SUBSCRIPTIONS;
export const ASPECTS = Object.keys(SUBSCRIPTIONS) as Aspect[];
export const FIELD_OF: Record<Aspect, string> = {
  assignees: 'issuableAssigneesUpdated',
  labels: 'issuableLabelsUpdated',
  milestone: 'issuableMilestoneUpdated',
  dates: 'issuableDatesUpdated',
  title: 'issuableTitleUpdated',
  description: 'issuableDescriptionUpdated',
  timeTracking: 'issuableTimeTrackingUpdated',
};
/** A subscription with the fragments it spreads, as GitLab's documents import theirs. */
export const documentOf = (aspect: Aspect) =>
  [SUBSCRIPTIONS[aspect], ...Object.entries(FRAGMENTS).filter(([name]) => SUBSCRIPTIONS[aspect].includes(`...${name}`)).map(([, fragment]) => fragment)].join('\n');

export const ISSUE_PAGE = /* GraphQL */ `
  query getIssue($fullPath: ID!, $iid: String!) {
    project(fullPath: $fullPath) {
      issue(iid: $iid) { id iid title }
    }
  }
`;

export interface RestIssue {
  id: number;
  iid: number;
  project_id: number;
  state: string;
  title: string;
  description: string | null;
  due_date: string | null;
  labels: string[];
  milestone: { id: number; title: string } | null;
  assignees: Array<{ id: number; username: string }>;
  time_stats: { time_estimate: number; total_time_spent: number };
}

export interface Event {
  data?: Record<string, Record<string, unknown> | null> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** A subscription whose events are collected, with a way to wait for the next one. */
export function subscribe(client: Client, query: string, variables: Record<string, unknown>) {
  const events: Event[] = [];
  let completed = false;
  const dispose = client.subscribe(
    { query, variables },
    {
      next: (event) => void events.push(event as Event),
      error: (error) => {
        events.push({ errors: Array.isArray(error) ? (error as Event['errors']) : [{ message: String(error) }] });
        completed = true;
      },
      complete: () => {
        completed = true;
      },
    },
  );
  return {
    events,
    dispose,
    get completed() {
      return completed;
    },
    async nextEvent(): Promise<Event> {
      const seen = events.length;
      await until(() => events.length > seen || completed);
      if (events.length === seen) throw new Error('the subscription ended without an event');
      return events[seen]!;
    },
  };
}
