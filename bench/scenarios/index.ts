// Every scenario, in the order they run. A new one (groups, issues, ...) is a file in this folder
// exporting a `Scenario`, added here. The numbers are those of the performance issue.
//
// Subscriptions run first: their memory figure is an RSS delta, and V8 keeps the pages an earlier
// scenario's garbage used, so after the other scenarios new subscriptions would fill those pages
// and the RSS delta would read low.
import type { Scenario } from '../lib/scenario.js';
import { dashboard } from './dashboard.js';
import { hotPath } from './hot-path.js';
import { runnerFleet } from './runner-fleet.js';
import { startup } from './startup.js';
import { subscriptions } from './subscriptions.js';
import { widePage } from './wide-page.js';

export const scenarios: readonly Scenario[] = [
  subscriptions, // (5) Subscriptions
  dashboard, // (1) Dashboard
  runnerFleet, // (2) Runner fleet
  widePage, // (3) Wide page
  hotPath, // (4) Hot path
  startup, // Memory at start, against the naive BFF
];
