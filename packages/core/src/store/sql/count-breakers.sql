-- count-breakers: no params. Circuit breakers that are not closed, per state, over every tenant.
SELECT state, count(*) AS n FROM breakers WHERE state <> 'closed' GROUP BY state
