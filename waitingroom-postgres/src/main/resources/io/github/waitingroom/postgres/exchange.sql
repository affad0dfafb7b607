WITH clock AS MATERIALIZED (
  SELECT clock_timestamp() AS now
),
arg AS MATERIALIZED (
  SELECT CAST(? AS text) AS room, CAST(? AS bigint) AS retention_ms,
         set_config('synchronous_commit', 'off', true) AS synchronous_commit
),
pub (scope, publisher, payload) AS MATERIALIZED (
  VALUES {{publications}}
),
written AS (
  INSERT INTO waitingroom_values AS t (room, scope, publisher, payload, expires_at)
  SELECT a.room, p.scope, p.publisher, p.payload, c.now + a.retention_ms * interval '1 millisecond'
  FROM pub p CROSS JOIN arg a CROSS JOIN clock c
  ON CONFLICT (room, scope, publisher)
  DO UPDATE SET payload = excluded.payload, expires_at = excluded.expires_at
  RETURNING 1
),
dead AS (
  DELETE FROM waitingroom_values AS t
  USING (
    SELECT o.room, o.scope, o.publisher
    FROM waitingroom_values AS o CROSS JOIN arg a
    WHERE o.room = a.room
      AND o.scope IN (SELECT scope FROM pub)
      AND (o.scope, o.publisher) NOT IN (SELECT scope, publisher FROM pub)
      AND (o.expires_at <= (SELECT c.now FROM clock c WHERE (SELECT count(*) FROM written) >= 0)
           OR octet_length(o.payload) > {{maxValueBytes}}
           OR octet_length(o.publisher) > {{maxNameBytes}})
    FOR UPDATE OF o SKIP LOCKED
  ) AS d
  WHERE t.room = d.room AND t.scope = d.scope AND t.publisher = d.publisher
)
SELECT CAST(NULL AS text) AS scope, CAST(NULL AS text) AS publisher, CAST(NULL AS bytea) AS payload,
       CAST(floor(extract(epoch FROM c.now) * 1000) AS bigint) AS clock_ms
FROM clock c
UNION ALL
SELECT o.scope, o.publisher, o.payload, NULL
FROM waitingroom_values AS o CROSS JOIN arg a CROSS JOIN clock c
WHERE o.room = a.room
  AND o.scope IN (SELECT scope FROM pub)
  AND (o.scope, o.publisher) NOT IN (SELECT scope, publisher FROM pub)
  AND o.expires_at > c.now
  AND octet_length(o.payload) <= {{maxValueBytes}}
  AND octet_length(o.publisher) <= {{maxNameBytes}}
