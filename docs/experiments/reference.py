"""The vision-distance report's model (its Algorithms 2.1-2.6) in plain Python, 2D, for its small N.

It exists to test one thing murmur cannot do: the report updates its boids in place, one after another
(a boid late in the loop sees the new positions and velocities of the boids before it); murmur's tick is
synchronous. `order="sync"` reads every neighbour from the state at the start of the tick (murmur's
way), `order="inplace"` from the current state (the report's loop, boids in index order). Everything
else is murmur's plane mode with steer_unit on: separation is the vector rule (the report's scalar
version has no direction), a boid with no neighbour gets no cohesion or alignment, and the strengths
are added to the velocity once per tick, as the report's Algorithm 2.1 does.

Standard library only. The metrics per sample are the ones vision.py computes from murmur's states.
"""
import math


def unit(x, y):
    n = math.sqrt(x * x + y * y)
    return (x / n, y / n) if n > 0.0 else (0.0, 0.0)


def simulate(state, p, ticks, order, every, sample_fn):
    """state: lists [x, y, vx, vy] (changed in place). p: dict with dvis, dsep, ssep, salign, scoh, vmax,
    dt, box, margin, vcorr (velocity correction per tick). Calls sample_fn(tick, state) every `every`
    ticks (and at tick 0)."""
    X, Y, VX, VY = state
    n = len(X)
    r2 = p["dvis"] * p["dvis"]
    s2 = p["dsep"] * p["dsep"]
    ssep, sal, sco = p["ssep"], p["salign"], p["scoh"]
    vmax, dt, box, m, vc = p["vmax"], p["dt"], p["box"], p["margin"], p["vcorr"]
    inplace = order == "inplace"
    idx = range(n)
    sample_fn(0, state)
    for tick in range(1, ticks + 1):
        if inplace:
            RX, RY, RVX, RVY = X, Y, VX, VY
        else:
            RX, RY, RVX, RVY = X[:], Y[:], VX[:], VY[:]
        for i in idx:
            xi, yi, vxi, vyi = RX[i], RY[i], RVX[i], RVY[i]
            cnt = 0
            cx = cy = ax = ay = sx = sy = 0.0
            for j in idx:
                dx = RX[j] - xi
                dy = RY[j] - yi
                d2 = dx * dx + dy * dy
                if d2 < r2 and j != i:
                    cnt += 1
                    cx += dx
                    cy += dy
                    ax += RVX[j]
                    ay += RVY[j]
                    if d2 < s2:
                        sx -= dx
                        sy -= dy
            vx, vy = vxi, vyi
            if cnt:
                ux, uy = unit(cx / cnt, cy / cnt)
                wx, wy = unit(ax / cnt - vxi, ay / cnt - vyi)
                vx += sco * ux + sal * wx
                vy += sco * uy + sal * wy
            vx += ssep * sx
            vy += ssep * sy
            # boundPosition: a velocity correction near each wall
            if xi < m:
                vx += vc
            elif xi > box - m:
                vx -= vc
            if yi < m:
                vy += vc
            elif yi > box - m:
                vy -= vc
            s = math.sqrt(vx * vx + vy * vy)
            if s > vmax:
                vx *= vmax / s
                vy *= vmax / s
            X[i] = xi + dt * vx
            Y[i] = yi + dt * vy
            VX[i] = vx
            VY[i] = vy
        if tick % every == 0:
            sample_fn(tick, state)
