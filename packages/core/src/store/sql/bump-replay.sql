-- bump-replay: params :id, :succeeded (0/1), :failed (0/1)
UPDATE replays SET attempted = attempted + 1, succeeded = succeeded + :succeeded, failed = failed + :failed WHERE id = :id
