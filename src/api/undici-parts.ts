// The parts of undici the client uses: Agent and ProxyAgent, with the request API on their
// prototype, taken from undici's own modules rather than from its index. The index loads every
// part of undici at once (fetch, WebSocket, EventSource, the mocks, the cache stores and their
// web streams, workers and performance hooks): 110 of its files run on the first request, against
// 34 for these, and ~740 KB of the dashboard's bundle against ~500 (docs/patches.md). undici's
// package.json has no `exports`, so these paths are as public as index.js; an undici that moves
// them fails the build.
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import api from 'undici/lib/api/index.js';

// What undici's index.js does before it exports anything: request() for our calls, connect()
// for ProxyAgent's tunnel, and the rest of the API as it would be there.
Object.assign(Dispatcher.prototype, api);

export { Agent, ProxyAgent };
