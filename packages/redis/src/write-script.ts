/**
 * Appends a batch of one run's events and updates its index entry, atomically: a batch is
 * written whole or not at all, so a retry after a lost reply finds every entry refused as
 * a duplicate (ids come from `seq`) and never leaves a hole behind a later entry.
 *
 * KEYS: stream, meta, lease, index.
 * ARGV: runId, now, leaseMs, maxLength, minId ('' = no age trim), ttlMs, terminal state
 * ('' while running), worker, agentName (''), then seq/json pairs.
 * Returns one status per event: 1 written, 0 duplicate; or {-1} when the run was already
 * marked abandoned (its lease expired), which fences a worker that comes back.
 */
export const WRITE_BATCH_SCRIPT = `
local stream, meta, lease, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local runId, now, leaseMs, maxLen, minId, ttl, terminal, worker, agent = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9]
if redis.call('HGET', meta, 'state') == 'abandoned' then return {-1} end
local results = {}
local lastSeq = redis.call('HGET', meta, 'lastSeq') or '0'
for i = 10, #ARGV, 2 do
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
  redis.call('SET', lease, worker, 'PX', leaseMs)
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
 * Marks a run abandoned when its lease is gone while it is still active: appends a
 * terminal `run.error` at the next `seq` (so readers end) and starts the finished-run TTL.
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
