// The crash suite's store module: a SqliteCheckpointStore whose writes call `crash` from inside
// their transactions (temporary triggers), so the suite can SIGKILL mid-commit.
import type { CrashStore } from '@headway/runtime/testing/conformance';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

const TRIGGERS = `
CREATE TEMP TRIGGER crash_msg AFTER INSERT ON main.headway_checkpoint_messages
  BEGIN SELECT crash_point('cpw:msg:' || (NEW.key % 16777216)); END;
CREATE TEMP TRIGGER crash_call_insert AFTER INSERT ON main.headway_checkpoint_tool_calls
  BEGIN SELECT crash_point('cpw:call:' || NEW.tool_call_id || ':' || json_extract(NEW.body, '$.status')); END;
CREATE TEMP TRIGGER crash_call_update AFTER UPDATE ON main.headway_checkpoint_tool_calls
  BEGIN SELECT crash_point('cpw:call:' || NEW.tool_call_id || ':' || json_extract(NEW.body, '$.status')); END;
`;

export function openCrashStore(location: string, crash: (label: string) => void): CrashStore {
  const store = new SqliteCheckpointStore(location);
  store.database.function('crash_point', (label: unknown) => {
    crash(String(label));
    return 0;
  });
  store.database.exec(TRIGGERS);
  return {
    store,
    close: () => {
      store.close();
    },
  };
}
