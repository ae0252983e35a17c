-- The interactions whose change was committed (issue 11): a second delivery of the same interaction
-- (a gateway replay) finds its id here, in the transaction that would apply it again, and is refused.
-- Written in the same transaction as the change; rows older than a day are dropped as new ones come.
CREATE TABLE handled_interactions (
    interaction_id BIGINT PRIMARY KEY
);
