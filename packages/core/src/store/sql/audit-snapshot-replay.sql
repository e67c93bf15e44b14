-- audit-snapshot-replay: the replay row an audit entry diffs, every column (a column added later shows up by itself); params :id
SELECT * FROM replays WHERE id = :id
