-- set-replay-selected: params :id, :selected
UPDATE replays SET selected = :selected WHERE id = :id
