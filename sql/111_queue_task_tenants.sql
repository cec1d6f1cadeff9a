-- Whose work a queued task is (the organization of a job; NULL for the service's own work,
-- such as webhook deliveries): a claim takes, within the best lane, the task of the tenant
-- with the fewest tasks running, so one organization's backlog never keeps another's work
-- waiting behind all of it.
ALTER TABLE queue_tasks ADD COLUMN tenant VARCHAR;
