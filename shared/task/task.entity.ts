import { Entity } from 'electrodb';

/**
 * Task, spec §3. `task_id` is a ULID (tables sort by creation). Timestamps epoch **ms**.
 * `version` guards read-modify-write (audit rows go in the same transaction).
 * Access: by id and all tasks of an org newest first (table); tasks assigned to a member newest
 * first (gsi1, 'My Tasks'; `assignee_key` 'none' = Unassigned). See ACCESS_PATTERNS.md 27-29.
 */
export const TaskEntity = new Entity({
  model: { entity: 'task', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    task_id: { type: 'string', required: true },
    title: { type: 'string', required: true },
    type: { type: ['todo', 'chat', 'message', 'ticket'] as const, required: true },
    status: { type: ['open', 'inprogress', 'closed'] as const, required: true },
    priority: { type: 'number', required: true },
    assignee: { type: 'string' },
    assignee_key: { type: 'string', required: true },
    due_date: { type: 'number' },
    remind_at: { type: 'number' },
    /** { remind_in, repeat: { frequency, interval, end } | null } */
    reminder_setting: { type: 'any', required: true },
    time_zone: { type: 'string', required: true },
    notes: { type: 'string' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    last_updated_by: { type: 'string', required: true },
    last_updated_at: { type: 'number', required: true },
    completed_metadata: { type: 'any' },
    associated_object_metadata: { type: 'any' },
    version: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    // task by id; all tasks of an org, newest first
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['task_id'] } },
    // tasks assigned to a member ('none' = Unassigned), newest first
    byAssignee: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'assignee_key'] }, sk: { field: 'gsi1sk', composite: ['task_id'] } },
  },
});

/** Task audit log row, spec §3: one per change, newest first by `log_id` (ULID of `timestamp`). */
export const TaskAuditEntity = new Entity({
  model: { entity: 'task_audit', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    task_id: { type: 'string', required: true },
    log_id: { type: 'string', required: true },
    action: { type: 'string', required: true },
    performed_by: { type: 'string', required: true },
    /** epoch ms */
    timestamp: { type: 'number', required: true },
    old_record: { type: 'any' },
    new_record: { type: 'any' },
  },
  indexes: {
    // audit rows of a task, newest first
    byTask: { pk: { field: 'pk', composite: ['org_id', 'task_id'] }, sk: { field: 'sk', composite: ['log_id'] } },
  },
});
