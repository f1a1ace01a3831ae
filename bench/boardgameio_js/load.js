// The load generator for boardgame.io's server, in the shape of bench/fanout.py's saturation scenario: ROOMS
// matches of 7 sockets (two players, five spectators, socket.io as boardgame.io's own client uses it), closed
// loop: a room's next move goes out when its previous one reached all 7 sockets. Prints one JSON line.
//
//   node load.js URL SERVER_PID ROOMS WARMUP_S DURATION_S SEED
'use strict';

const fs = require('fs');
const { io } = require('socket.io-client');

const [url, serverPid, roomCount, warmup, duration, seed] = process.argv.slice(2);
const SOCKETS = 7;
const CELLS = 25;
const GAME = 'tritac';

let state = Number(seed) || 1;
function random() {
  // mulberry32: seeded, so two runs play the same cells
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // CLK_TCK is 100 on Linux
}

// Time the server waited for its core (another process on it), as bench/servers.py reads it.
function runqueueWaitSeconds(pid) {
  return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
}

// CPU of the server's threads other than its main one (V8's collector and compiler, libuv's pool): they
// share the server's core, so the main thread waiting for them is the server's own work.
function otherThreadsCpuSeconds(pid) {
  let total = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    if (task === String(pid)) continue;
    try {
      total += cpuSeconds(`${pid}/task/${task}`);
    } catch (error) {
      // the thread ended meanwhile
    }
  }
  return total;
}

async function post(path, body) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

const stats = { sending: false, windowStart: Infinity, windowEnd: Infinity, latencies: [], repeated: 0 };

class Room {
  constructor(index) {
    this.index = index;
    this.sockets = [];
    this.credentials = [];
    this.stateID = 0;
    this.cells = Array(CELLS).fill(null);
    this.toAct = 0;
    this.expected = -1;
    this.left = 0;
    this.sentAt = 0;
    this.prefill = 0;
  }

  onUpdate(socket, matchID, gameState) {
    if (!this.left || gameState._stateID < this.expected || socket.counted === this.expected) return;
    socket.counted = this.expected;
    this.left -= 1;
    if (this.left) return;
    const now = performance.now();
    if (this.sentAt >= stats.windowStart && this.sentAt < stats.windowEnd) stats.latencies.push(now - this.sentAt);
    this.stateID = gameState._stateID;
    this.cells = gameState.G.cells;
    this.toAct = Number(gameState.ctx.currentPlayer);
    if (!stats.sending) return;
    if (this.prefill) {
      this.prefill -= 1;
      this.send();
    } else if (stats.closedLoop) {
      this.send();
    }
  }

  send() {
    const free = [];
    for (let i = 0; i < CELLS; i++) if (this.cells[i] === null) free.push(i);
    const cell = free[Math.floor(random() * free.length)];
    const player = String(this.toAct);
    const action = {
      type: 'MAKE_MOVE',
      payload: { type: 'place', args: [cell], playerID: player, credentials: this.credentials[this.toAct] },
    };
    this.expected = this.stateID + 1;
    this.left = SOCKETS;
    this.sentAt = performance.now();
    this.sockets[this.toAct].emit('update', action, this.stateID, this.matchID, player);
  }
}

function connect(room, playerID) {
  return new Promise((resolve, reject) => {
    const socket = io(`${url}/${GAME}`, { transports: ['websocket'], forceNew: true, reconnection: false });
    socket.counted = -1;
    socket.on('connect_error', reject);
    socket.once('sync', (matchID, syncInfo) => {
      room.stateID = syncInfo.state._stateID;
      room.toAct = Number(syncInfo.state.ctx.currentPlayer);
      resolve(socket);
    });
    socket.on('update', (matchID, gameState) => room.onUpdate(socket, matchID, gameState));
    socket.on('connect', () => {
      socket.emit('sync', room.matchID, playerID, playerID === null ? undefined : room.credentials[playerID], 2);
    });
  });
}

async function limited(limit, items, work) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (queue.length) await work(queue.shift());
    }),
  );
}

function percentile(sorted, q) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

async function main() {
  const rooms = Array.from({ length: Number(roomCount) }, (_, i) => new Room(i));
  const setupStart = performance.now();
  await limited(8, rooms, async (room) => {
    room.matchID = (await post(`/games/${GAME}/create`, { numPlayers: 2 })).matchID;
    for (const playerID of ['0', '1']) {
      const joined = await post(`/games/${GAME}/${room.matchID}/join`, { playerID, playerName: `P${playerID}` });
      room.credentials.push(joined.playerCredentials);
    }
  });
  await limited(64, rooms, async (room) => {
    room.sockets = await Promise.all([0, 1, null, null, null, null, null].map((p) => connect(room, p)));
  });
  const setupSeconds = (performance.now() - setupStart) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 2000));

  // Staggered starts, as bench/fanout.py: each room plays a random part of a board first, unmeasured.
  stats.sending = true;
  for (const room of rooms) {
    room.prefill = Math.floor(random() * CELLS);
    if (room.prefill) {
      room.prefill -= 1;
      room.send();
    }
  }
  while (rooms.some((room) => room.prefill || room.left)) await new Promise((r) => setTimeout(r, 50));

  stats.closedLoop = true;
  const start = performance.now();
  stats.windowStart = start + Number(warmup) * 1000;
  stats.windowEnd = stats.windowStart + Number(duration) * 1000;
  for (const room of rooms) room.send();
  await new Promise((r) => setTimeout(r, stats.windowStart - performance.now()));
  const cpu0 = cpuSeconds(serverPid);
  const waited0 = runqueueWaitSeconds(serverPid);
  const others0 = otherThreadsCpuSeconds(serverPid);
  const generator0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, stats.windowEnd - performance.now()));
  const serverCpu = cpuSeconds(serverPid) - cpu0;
  const waited = runqueueWaitSeconds(serverPid) - waited0;
  const others = otherThreadsCpuSeconds(serverPid) - others0;
  const generator = process.cpuUsage(generator0);
  stats.sending = false;
  const drainUntil = performance.now() + 10000;
  while (rooms.some((room) => room.left) && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
  const moves = stats.latencies.length;
  const sorted = stats.latencies.sort((a, b) => a - b);
  const result = {
    rooms: rooms.length,
    sockets: rooms.length * SOCKETS,
    duration_s: Number(duration),
    achieved_moves_per_s: Math.round((moves / Number(duration)) * 10) / 10,
    latency_ms: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] },
    server_cpu_s: serverCpu,
    server_cpu_us_per_move: moves ? Math.round((serverCpu / moves) * 1e7) / 10 : null,
    server_cpu_utilisation: Math.round((serverCpu / Number(duration)) * 1000) / 1000,
    generator_cpu_utilisation: Math.round(((generator.user + generator.system) / 1e6 / Number(duration)) * 1000) / 1000,
    setup_s: Math.round(setupSeconds * 10) / 10,
    window_counters: {
      runqueue_wait_s: Math.round(waited * 1e4) / 1e4,
      thread_cpu_others: Math.round(others * 1e4) / 1e4,
    },
  };
  console.log(JSON.stringify(result));
  for (const room of rooms) for (const socket of room.sockets) socket.close();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
