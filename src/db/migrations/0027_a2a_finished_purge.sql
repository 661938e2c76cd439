-- Finished A2A tasks are deleted after 90 days (spec "Task store"), also a caller's who never sends again: the A2A
-- sweep (every 30 s on every node) deletes those last changed before the cutoff. This index finds them without
-- reading the other finished tasks (a2a_tasks_finished_idx leads with the caller, for a caller's own next save).
CREATE INDEX a2a_tasks_finished_at_idx ON a2a_tasks (updated_at)
  WHERE state IN ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED');
