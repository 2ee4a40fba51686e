import { checkpointStoreConformance } from './checkpoint-store-conformance.test-util.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';

checkpointStoreConformance('MemoryCheckpointStore', (now) => ({ store: new MemoryCheckpointStore({ now }) }));
