import { MemorySessionStore } from './memory-session-store.js';
import { sessionStoreConformance } from './session-store-conformance.test-util.js';

sessionStoreConformance('MemorySessionStore', (now) => ({ store: new MemorySessionStore({ now }) }));
