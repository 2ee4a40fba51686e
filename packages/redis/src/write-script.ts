/**
 * Appends a batch of one run's events and updates its index entry, atomically: a batch is
 * written whole or not at all, so a retry after a lost reply finds every entry refused as
 * a duplicate (ids come from `seq`) and never leaves a hole behind a later entry.
 *
 * Each run has one holder at a time (`holder` in its hash: the token of the sink writing it),
 * and `attempt` counts its holders. A sink's first batch of a run claims it (`claim` = '1'):
 * a new run, a run whose writer stopped, or a run marked abandoned (a resumed run: its
 * abandoned attempt ends at the `run.error` the reaper appended, and the new attempt's
 * events follow it; the TTL the reaper started is removed). When the new attempt's first
 * `seq` is not after the stream's last entry (the marker took the next `seq`), the attempt's
 * events are shifted past it: the script returns `{-2, shift}` without writing and the sink
 * writes the batch again with `seq + shift`. Later batches (`claim` = '0') are written only
 * while the sink is still the holder and the run is not abandoned, which fences a worker
 * whose lease lapsed, whether or not another one resumed the run since.
 *
 * KEYS: stream, meta, lease, index.
 * ARGV: runId, now, leaseMs, maxLength, minId ('' = no age trim), ttlMs, terminal state
 * ('' while running), worker, agentName (''), holder token, claim ('1' / '0'), first seq
 * of the batch, then seq/json pairs.
 * Returns one status per event: 1 written, 0 duplicate; `{-1}` when the sink is fenced
 * off the run; `{-2, shift}` when the batch must be written again shifted.
 */
export const WRITE_BATCH_SCRIPT = `
local stream, meta, lease, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local runId, now, leaseMs, maxLen, minId, ttl, terminal, worker, agent = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local holder, claim, firstSeq = ARGV[10], ARGV[11], tonumber(ARGV[12])
local state = redis.call('HGET', meta, 'state')
local current = redis.call('HGET', meta, 'holder')
if current == holder then
  if state == 'abandoned' then return {-1} end
  local shift = tonumber(redis.call('HGET', meta, 'shift') or '0')
  if claim == '1' and shift > 0 then return {-2, shift} end
elseif claim ~= '1' then
  return {-1}
else
  local shift = 0
  if state == 'abandoned' then
    local top = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
    if #top > 0 then
      local topSeq = tonumber(string.match(top[1][1], '^(%d+)-'))
      if topSeq >= firstSeq then shift = topSeq - firstSeq + 1 end
    end
    redis.call('PERSIST', stream)
    redis.call('PERSIST', meta)
    redis.call('HDEL', meta, 'endedAt')
  end
  redis.call('HINCRBY', meta, 'attempt', 1)
  redis.call('HSET', meta, 'holder', holder, 'shift', string.format('%d', shift), 'state', 'active', 'updatedAt', now)
  if shift > 0 then
    redis.call('SET', lease, holder, 'PX', leaseMs)
    redis.call('ZADD', index, now, runId)
    return {-2, shift}
  end
end
local results = {}
local lastSeq = redis.call('HGET', meta, 'lastSeq') or '0'
for i = 13, #ARGV, 2 do
  local reply = redis.pcall('XADD', stream, 'MAXLEN', '~', maxLen, ARGV[i] .. '-0', 'e', ARGV[i + 1])
  if type(reply) == 'table' and reply.err then
    results[#results + 1] = 0
  else
    results[#results + 1] = 1
    lastSeq = ARGV[i]
  end
end
if minId ~= '' then redis.call('XTRIM', stream, 'MINID', '~', minId) end
if terminal == '' then
  redis.call('SET', lease, holder, 'PX', leaseMs)
  redis.call('HSET', meta, 'state', 'active')
else
  redis.call('DEL', lease)
  redis.call('HSET', meta, 'state', terminal, 'endedAt', now)
end
redis.call('HSET', meta, 'updatedAt', now, 'lastSeq', lastSeq, 'worker', worker)
redis.call('HSETNX', meta, 'startedAt', now)
if agent ~= '' then redis.call('HSET', meta, 'agentName', agent) end
redis.call('ZADD', index, now, runId)
if terminal ~= '' then
  redis.call('PEXPIRE', stream, ttl)
  redis.call('PEXPIRE', meta, ttl)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. (tonumber(now) - tonumber(ttl)))
end
return results
`;

/**
 * Renews a run's lease only while it is this sink's (a fenced worker never keeps another
 * worker's lease, or an expired one, alive).
 *
 * KEYS: lease. ARGV: holder token, leaseMs. Returns 1 when renewed, else 0.
 */
export const RENEW_LEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/**
 * Marks a run abandoned when its lease is gone while it is still active: appends a
 * terminal `run.error` at the next `seq` (so readers end) and starts the finished-run TTL.
 * The abandoned attempt's holder stays recorded, so that worker stays fenced; a worker that
 * resumes the run claims it again (see {@link WRITE_BATCH_SCRIPT}).
 *
 * KEYS: stream, meta, lease, index. ARGV: runId, now, ttlMs, message.
 * Returns the seq of the appended event, or 0 when there was nothing to do.
 */
export const ABANDON_SCRIPT = `
local stream, meta, lease, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local runId, now, ttl, message = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', lease) == 1 then return 0 end
if redis.call('HGET', meta, 'state') ~= 'active' then return 0 end
local seq = 0
local top = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
if #top > 0 then seq = tonumber(string.match(top[1][1], '^(%d+)-')) end
local nextSeq = seq + 1
local event = '{"type":"run.error","error":' .. cjson.encode(message) .. ',"runId":' .. cjson.encode(runId) .. ',"seq":' .. string.format('%d', nextSeq) .. ',"ts":' .. now .. '}'
local reply = redis.pcall('XADD', stream, string.format('%d', nextSeq) .. '-0', 'e', event)
if type(reply) == 'table' and reply.err then return 0 end
redis.call('HSET', meta, 'state', 'abandoned', 'endedAt', now, 'updatedAt', now, 'lastSeq', string.format('%d', nextSeq))
redis.call('PEXPIRE', stream, ttl)
redis.call('PEXPIRE', meta, ttl)
redis.call('ZADD', index, now, runId)
return nextSeq
`;
