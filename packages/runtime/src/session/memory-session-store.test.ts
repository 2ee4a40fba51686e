import { systemClock } from '@headway/protocol';
import { MemorySessionStore } from './memory-session-store.js';
import { sessionStoreConformance } from '../testing/session-store-conformance.js';

sessionStoreConformance('MemorySessionStore', (now) => ({ store: new MemorySessionStore({ clock: { ...systemClock, now } }) }));
