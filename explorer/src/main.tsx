import 'graphiql/graphiql.css';
import './explorer.css';
import { GraphiQL } from 'graphiql';
import { createRoot } from 'react-dom/client';
import { createExplorerFetcher, gatewayUrls } from './fetcher.js';

// JSON cannot hold a comment, so the hint on what to put in the headers is in the query editor.
const DEFAULT_HEADERS = JSON.stringify({ 'PRIVATE-TOKEN': '' }, null, 2);

const DEFAULT_QUERY = `# The gateway's offline explorer: everything it needs comes from this gateway.
#
# 1. Put your GitLab token in the Headers tab below, as {"PRIVATE-TOKEN": "glpat-..."}
#    (or "Authorization": "Bearer ..."). The embedded v4 server knows glpat-demo-admin,
#    glpat-demo-maintainer, glpat-demo-developer, glpat-demo-guest, glpat-demo-outsider.
#    The headers go with every request, and into the WebSocket's connection_init for
#    subscriptions. They are kept in this tab only, never stored.
# 2. Run with Ctrl-Enter or the run button. Subscriptions run over a WebSocket to the same URL.

query Fleet {
  currentUser { username }
  runners(first: 5) {
    count
    nodes {
      id
      description
      status
      projects { nodes { fullPath } }
    }
  }
}
`;

const container = document.getElementById('explorer');
if (!container) throw new Error('The explorer page has no #explorer element.');

createRoot(container).render(
  <GraphiQL
    fetcher={createExplorerFetcher(gatewayUrls(window.location))}
    defaultQuery={DEFAULT_QUERY}
    defaultHeaders={DEFAULT_HEADERS}
    defaultEditorToolsVisibility="headers"
    shouldPersistHeaders={false}
  >
    <GraphiQL.Logo>GitLab gateway</GraphiQL.Logo>
  </GraphiQL>,
);
