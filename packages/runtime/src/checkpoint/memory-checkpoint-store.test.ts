import { systemClock } from '@headway/protocol';
import { checkpointStoreConformance } from '../testing/checkpoint-store-conformance.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';

checkpointStoreConformance('MemoryCheckpointStore', (now) => ({ store: new MemoryCheckpointStore({ clock: { ...systemClock, now } }) }));
