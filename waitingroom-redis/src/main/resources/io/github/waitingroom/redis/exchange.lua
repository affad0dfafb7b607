-- KEYS: per scope, its values hash then its expiry sorted set
-- ARGV: retention ms, then per publication: scope number (1-based), publisher, payload
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expires = now + tonumber(ARGV[1])
for i = 2, #ARGV, 3 do
  local s = tonumber(ARGV[i])
  redis.call('HSET', KEYS[2 * s - 1], ARGV[i + 1], ARGV[i + 2])
  redis.call('ZADD', KEYS[2 * s], expires, ARGV[i + 1])
end
local out = {}
for s = 1, #KEYS / 2 do
  local values, expiry = KEYS[2 * s - 1], KEYS[2 * s]
  local dead = redis.call('ZRANGEBYSCORE', expiry, '-inf', now)
  for j = 1, #dead, 500 do
    redis.call('HDEL', values, unpack(dead, j, math.min(j + 499, #dead)))
  end
  if #dead > 0 then redis.call('ZREMRANGEBYSCORE', expiry, '-inf', now) end
  local live = redis.call('ZRANGE', expiry, 0, -1, 'WITHSCORES')
  local answer = {}
  local last = 0
  for j = 1, #live, 2 do
    if #live[j] > {{maxNameBytes}} or redis.call('HSTRLEN', values, live[j]) > {{maxValueBytes}} then
      redis.call('HDEL', values, live[j])
      redis.call('ZREM', expiry, live[j])
    else
      local v = redis.call('HGET', values, live[j])
      if v then
        answer[#answer + 1] = live[j]
        answer[#answer + 1] = v
      end
    end
    local e = tonumber(live[j + 1])
    if e > last then last = e end
  end
  if last > 0 then
    redis.call('PEXPIREAT', values, last + 1000)
    redis.call('PEXPIREAT', expiry, last + 1000)
  end
  out[s] = answer
end
out[#KEYS / 2 + 1] = tostring(now)
return out
