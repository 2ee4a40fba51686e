import type { EventHandler, ProgressReporter } from '@headway/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import type { AuditBus } from './audit-bus.js';
import type { AuditDetails, AuditEventType } from './audit-event.js';
import type { AuditReporter } from './audit-reporter.js';
import type { JsonlAuditBus } from './jsonl-audit-bus.js';
import type { MemoryAuditBus } from './memory-audit-bus.js';
import type { SqliteAuditBus } from './sqlite-audit-bus.js';

describe('types', () => {
  it('the reporter is a ProgressReporter and a hub handler; every bus is an AuditBus', () => {
    expectTypeOf<AuditReporter>().toExtend<ProgressReporter>();
    expectTypeOf<AuditReporter>().toExtend<EventHandler>();
    expectTypeOf<MemoryAuditBus>().toExtend<AuditBus>();
    expectTypeOf<JsonlAuditBus>().toExtend<AuditBus>();
    expectTypeOf<SqliteAuditBus>().toExtend<AuditBus>();
  });

  it('the seven methods’ details have the documented fields', () => {
    expectTypeOf<AuditDetails['agent.progress.iteration']>().toExtend<{ iteration: number; max: number }>();
    expectTypeOf<AuditDetails['agent.progress.tool_done']>().toExtend<{ tool: string; summary: string }>();
    expectTypeOf<'agent.progress.update'>().toExtend<AuditEventType>();
    expectTypeOf<'agent.progress.nothing'>().not.toExtend<AuditEventType>();
  });
});
