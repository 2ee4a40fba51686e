import type { InternalErrorContext } from '@headway/protocol';

/** Where a failure the playbook or the learnings survived happened: the store that could not be read. */
export interface ContextErrorContext extends InternalErrorContext {
  readonly where: 'context.playbook.store' | 'context.learnings.store';
}
