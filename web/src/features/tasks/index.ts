/**
 * The tasks feature's public surface: the task panel's provider and actions (tasks from a
 * message or ticket), and the member and day helpers other features reuse.
 */
export { TasksProvider, useTaskActions, useTasks } from './hooks/useTasks.tsx';
export { browserTimeZone, fromDayInput, memberLabel, toDayInput } from './api/tasks.ts';
