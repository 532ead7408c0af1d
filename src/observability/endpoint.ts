import { declaredTemplateNames, restPathTemplates } from '../datasources/path.js';

/**
 * Names the REST endpoint of a concrete path, for metric labels: `/projects/gitlab-org%2Fgitlab/issues/7`
 * is `/projects/:id/issues/:id`. Raw paths would make a label value per project, issue and runner
 * (unbounded cardinality); endpoint names are as few as the call sites that build paths.
 *
 * The names come from the templates restPath was called with (src/datasources/path.ts): restPath
 * encodes every value into exactly one segment, so a template's literal parts and its count of
 * segments identify the endpoint, the most literal one first. Constant paths go through restPath
 * too (`restPath\`/runners/all\``), or `/runners/:id` would claim them; a path that never did names
 * itself when it is literal; a template with more segments appended (an artifact's file path) is
 * named `<template>/*`; anything else is `other`, never the raw path.
 */

interface CompiledTemplate {
  name: string;
  exact: RegExp;
  prefix: RegExp;
  /** Literal characters: with several matches, the most literal template is the right one (`wikis/attachments` over `wikis/:id`). */
  weight: number;
}

const VALUE = '[^/]+';
const LITERAL_PATH = /^(?:\/[a-z_]+)+$/;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const segmentCount = (path: string) => path.split('/').length;

let compiledFrom = -1;
let bySegments = new Map<number, CompiledTemplate[]>();
let all: CompiledTemplate[] = [];

/** Paths named so far: a page's calls repeat across requests, and a name costs a few regex tests. */
const named = new Map<string, string>();
const MAX_NAMED_PATHS = 10_000;

function compile(): void {
  if (compiledFrom === restPathTemplates.size) return;
  const templates = [...restPathTemplates].map((strings): CompiledTemplate => {
    const pattern = strings.map(escape).join(VALUE);
    return {
      name: declaredTemplateNames.get(strings) ?? strings.join(':id'),
      exact: new RegExp(`^${pattern}$`),
      prefix: new RegExp(`^${pattern}/`),
      weight: strings.join('').length,
    };
  });
  templates.sort((a, b) => b.weight - a.weight);
  all = templates;
  bySegments = new Map();
  for (const template of templates) {
    const count = segmentCount(template.name);
    bySegments.set(count, [...(bySegments.get(count) ?? []), template]);
  }
  compiledFrom = restPathTemplates.size;
  // A new template may name a path that was `other` before.
  named.clear();
}

/** The endpoint name of a REST path (without query string), e.g. `/runners/:id/jobs`. */
export function endpointOf(path: string): string {
  compile();
  let name = named.get(path);
  if (name === undefined) {
    // Bounded by clearing, not by recency: ids are unbounded, and a cleared cache only costs regex tests.
    if (named.size >= MAX_NAMED_PATHS) named.clear();
    named.set(path, (name = nameOf(path)));
  }
  return name;
}

function nameOf(path: string): string {
  const exact = bySegments.get(segmentCount(path))?.find((template) => template.exact.test(path));
  if (exact) return exact.name;
  if (LITERAL_PATH.test(path)) return path;
  const prefix = all.find((template) => template.prefix.test(path));
  return prefix ? `${prefix.name}/*` : 'other';
}
