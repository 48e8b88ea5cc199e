"""Pure-Python reference of src/sim/shape.c (same definitions, same order of operations where it
matters): the murmuration validation computes its metrics with it when no shape_tool is given, and
the test suite compares it with the C code. Standard library only. Definitions: src/sim/shape.h and
docs/murmuration.md."""
import math

KMAX = 10
COLUMNS = ("thin,mid,long,thin_angle_deg,vel_thin_angle_deg,group_polarisation,speed_mean,speed_cv,"
           "at_limit_frac,close_frac," + ",".join("gamma%d" % k for k in range(1, KMAX + 1)) +
           ",border_ratio,corr_len,flock_size,group_size").split(",")
PAIR_LIMIT = 10000   # C: all pairs up to this many boids
PY_PAIR_LIMIT = 3000  # Python: above this, the same (i + j) % stride rule with a smaller limit (speed)


def read_state(path):
    pos, vel = [], []
    with open(path) as f:
        head = f.readline()
        while head.startswith("#"):  # how the state was made (version, parameters, command line)
            head = f.readline()
        if not head.startswith("kind,"):
            raise ValueError("%s: no header" % path)
        for line in f:
            c = line.strip().split(",")
            if c[0] != "boid":
                continue
            pos.append((float(c[1]), float(c[2]), float(c[3])))
            vel.append((float(c[4]), float(c[5]), float(c[6])))
    return pos, vel


def eig3(a):
    """Cyclic Jacobi as in shape.c: ascending eigenvalues and unit vectors (largest component > 0)."""
    a = [row[:] for row in a]
    v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    for _ in range(60):
        off = abs(a[0][1]) + abs(a[0][2]) + abs(a[1][2])
        diag = abs(a[0][0]) + abs(a[1][1]) + abs(a[2][2])
        if off <= 1e-300 or off <= 1e-15 * diag:
            break
        for p in range(2):
            for q in range(p + 1, 3):
                if a[p][q] == 0.0:
                    continue
                theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q])
                t = (1.0 if theta >= 0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1.0))
                c = 1.0 / math.sqrt(t * t + 1.0)
                s = t * c
                for k in range(3):
                    akp, akq = a[k][p], a[k][q]
                    a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
                for k in range(3):
                    apk, aqk = a[p][k], a[q][k]
                    a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
                for k in range(3):
                    vkp, vkq = v[k][p], v[k][q]
                    v[k][p], v[k][q] = c * vkp - s * vkq, s * vkp + c * vkq
    idx = sorted(range(3), key=lambda i: a[i][i])
    vals, vecs = [], []
    for i in idx:
        vec = [v[c][i] for c in range(3)]
        big = max(range(3), key=lambda c: (abs(vec[c]), -c))
        if vec[big] < 0:
            vec = [-x for x in vec]
        vals.append(a[i][i])
        vecs.append(vec)
    return vals, vecs


def label_groups(pos, link):
    """Connected components of 'closer than link' (grid of cell size link); label = smallest index."""
    n = len(pos)
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    cells = {}
    for i, p in enumerate(pos):
        cells.setdefault(tuple(int(math.floor(x / link)) for x in p), []).append(i)
    r2 = link * link
    for (cx, cy, cz), members in cells.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    other = cells.get((cx + dx, cy + dy, cz + dz))
                    if not other:
                        continue
                    for i in members:
                        pi = pos[i]
                        for j in other:
                            if j <= i:
                                continue
                            pj = pos[j]
                            if (pj[0] - pi[0]) ** 2 + (pj[1] - pi[1]) ** 2 + (pj[2] - pi[2]) ** 2 < r2:
                                a, b = find(i), find(j)
                                if a != b:
                                    parent[max(a, b)] = min(a, b)
    return [find(i) for i in range(n)]


def biggest_group(labels):
    count = {}
    for l in labels:
        count[l] = count.get(l, 0) + 1
    best = min(count, key=lambda l: (-count[l], l))
    return [i for i, l in enumerate(labels) if l == best]


def extents(pos, vel):
    n = len(pos)
    c = [sum(p[a] for p in pos) / n for a in range(3)]
    cov = [[0.0] * 3 for _ in range(3)]
    for p in pos:
        d = [p[a] - c[a] for a in range(3)]
        for a in range(3):
            for b in range(3):
                cov[a][b] += d[a] * d[b]
    cov = [[x / n for x in row] for row in cov]
    vals, vecs = eig3(cov)
    ext = [2.0 * math.sqrt(3.0 * max(l, 0.0)) for l in vals]
    thin_angle = math.degrees(math.acos(min(1.0, abs(vecs[0][1]))))
    mv = [sum(v[a] for v in vel) / n for a in range(3)]
    sp = math.sqrt(sum(x * x for x in mv))
    vta = -1.0
    if sp > 0:
        vta = math.degrees(math.acos(min(1.0, abs(sum(vecs[0][a] * mv[a] for a in range(3))) / sp)))
    return dict(centre=c, vals=vals, vecs=vecs, extent=ext, thin_angle=thin_angle, vel_thin_angle=vta,
                mean_vel=mv, mean_speed=sp)


def polarisation(vel):
    s = [0.0, 0.0, 0.0]
    m = 0
    for v in vel:
        l = math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2)
        if l > 0:
            for a in range(3):
                s[a] += v[a] / l
            m += 1
    return math.sqrt(sum(x * x for x in s)) / m if m else 0.0


def speeds(vel, vmin, vmax):
    sp = [math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2) for v in vel]
    n = len(sp)
    mean = sum(sp) / n
    var = sum((s - mean) ** 2 for s in sp) / n
    at = sum(1 for s in sp if s <= vmin * (1 + 1e-3) or s >= vmax * (1 - 1e-3))
    return mean, (math.sqrt(var) / mean if mean > 0 else 0.0), at / n


def knn(pos, k):
    """k nearest (ascending distance, ties by index) through a grid whose rings grow until the k-th
    distance is certain: a point outside ring r is at least r*h away."""
    n = len(pos)
    lo = [min(p[a] for p in pos) for a in range(3)]
    hi = [max(p[a] for p in pos) for a in range(3)]
    vol = max((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]), 1e-30)
    h = max((vol * (k + 1) / n) ** (1.0 / 3.0), 1e-9)  # about k+1 boids per cell
    cells = {}
    key = [tuple(int(math.floor((p[a] - lo[a]) / h)) for a in range(3)) for p in pos]
    for i, kk in enumerate(key):
        cells.setdefault(kk, []).append(i)
    span = max(int((hi[a] - lo[a]) / h) + 1 for a in range(3))
    nbr, dist = [], []
    for i, p in enumerate(pos):
        cx, cy, cz = key[i]
        cand = []
        r = 0
        while True:
            for dx in range(-r, r + 1):
                for dy in range(-r, r + 1):
                    for dz in range(-r, r + 1):
                        if max(abs(dx), abs(dy), abs(dz)) != r:
                            continue
                        for j in cells.get((cx + dx, cy + dy, cz + dz), ()):
                            if j != i:
                                q = pos[j]
                                cand.append(((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 + (q[2] - p[2]) ** 2, j))
            if len(cand) >= k:
                cand.sort()
                if cand[k - 1][0] <= (r * h) ** 2 or r > span:
                    break
            r += 1
        best = cand[:k]
        nbr.append([j for _, j in best])
        dist.append([math.sqrt(d) for d, _ in best])
    return nbr, dist


def border_flags(pos, ex, frac):
    c, vals, vecs = ex["centre"], ex["vals"], ex["vecs"]
    rho = []
    for i, p in enumerate(pos):
        q = 0.0
        for k in range(3):
            x = sum((p[a] - c[a]) * vecs[k][a] for a in range(3))
            q += x * x / max(vals[k], 1e-30)
        rho.append((-math.sqrt(q), i))
    rho.sort()
    nb = min(len(pos), max(0, int(math.ceil(frac * len(pos) - 1e-9))))
    flags = [0] * len(pos)
    for _, i in rho[:nb]:
        flags[i] = 1
    return flags


def gamma(pos, ex, nbr, border, k):
    mv, sp = ex["mean_vel"], ex["mean_speed"]
    out = []
    for j in range(k):
        m = [[0.0] * 3 for _ in range(3)]
        focal = 0
        for i, p in enumerate(pos):
            if border[i]:
                continue
            q = pos[nbr[i][j]]
            u = [q[a] - p[a] for a in range(3)]
            l2 = u[0] ** 2 + u[1] ** 2 + u[2] ** 2
            if l2 <= 0:
                continue
            for a in range(3):
                for b in range(3):
                    m[a][b] += u[a] * u[b] / l2
            focal += 1
        if focal == 0 or sp <= 0:
            out.append(-1.0)
            continue
        vals, vecs = eig3([[x / focal for x in row] for row in m])
        d = sum(vecs[0][a] * mv[a] for a in range(3)) / sp
        out.append(d * d)
    return out


def diameter(pos):
    n = len(pos)
    c = [sum(p[a] for p in pos) / n for a in range(3)]
    r = sorted((-math.sqrt(sum((p[a] - c[a]) ** 2 for a in range(3))), i) for i, p in enumerate(pos))
    rho = [-x for x, _ in r]
    idx = [i for _, i in r]
    best = 0.0
    for a in range(n):
        if 2 * rho[a] <= best * (1 - 1e-12):
            break
        pa = pos[idx[a]]
        for b in range(a + 1, n):
            if rho[a] + rho[b] <= best * (1 - 1e-12):
                break
            pb = pos[idx[b]]
            d = math.sqrt((pb[0] - pa[0]) ** 2 + (pb[1] - pa[1]) ** 2 + (pb[2] - pa[2]) ** 2)
            best = max(best, d)
    return best


def fluctuations(pos, vel, remove_rigid=True):
    n = len(pos)
    mv = [sum(v[a] for v in vel) / n for a in range(3)]
    c = [sum(p[a] for p in pos) / n for a in range(3)]
    u = [[v[a] - mv[a] for a in range(3)] for v in vel]
    if not remove_rigid:
        return u
    inert = [[0.0] * 3 for _ in range(3)]
    l = [0.0, 0.0, 0.0]
    rr = ru = 0.0
    for p, ui in zip(pos, u):
        r = [p[a] - c[a] for a in range(3)]
        r2 = r[0] ** 2 + r[1] ** 2 + r[2] ** 2
        for a in range(3):
            for b in range(3):
                inert[a][b] += (r2 if a == b else 0.0) - r[a] * r[b]
        l[0] += r[1] * ui[2] - r[2] * ui[1]
        l[1] += r[2] * ui[0] - r[0] * ui[2]
        l[2] += r[0] * ui[1] - r[1] * ui[0]
        rr += r2
        ru += r[0] * ui[0] + r[1] * ui[1] + r[2] * ui[2]
    vals, vecs = eig3(inert)
    w = [0.0, 0.0, 0.0]
    for k in range(3):
        if vals[k] <= 1e-12 * (vals[2] if vals[2] > 0 else 1.0):
            continue
        pr = sum(vecs[k][a] * l[a] for a in range(3)) / vals[k]
        for a in range(3):
            w[a] += pr * vecs[k][a]
    s = ru / rr if rr > 0 else 0.0
    for p, ui in zip(pos, u):
        r = [p[a] - c[a] for a in range(3)]
        ui[0] -= w[1] * r[2] - w[2] * r[1] + s * r[0]
        ui[1] -= w[2] * r[0] - w[0] * r[2] + s * r[1]
        ui[2] -= w[0] * r[1] - w[1] * r[0] + s * r[2]
    return u


def corr(pos, vel, nbins, size, remove_rigid=True, pair_limit=PAIR_LIMIT):
    """C(r) and its first zero crossing, as mur_shape_corr; pair_limit picks the stride."""
    n = len(pos)
    u = fluctuations(pos, vel, remove_rigid)
    c0 = sum(x * x for ui in u for x in ui) / n
    c = [0.0] * nbins
    cnt = [0] * nbins
    stride = (n + pair_limit - 1) // pair_limit if n > pair_limit else 1
    scale = nbins / size if size > 0 else 0.0
    for i in range(n):
        pi, ui = pos[i], u[i]
        j0 = i + 1
        if stride > 1:  # first j > i with (i + j) % stride == 0
            j0 += (-(i + j0)) % stride
        for j in range(j0, n, stride):
            pj = pos[j]
            b = int(math.sqrt((pj[0] - pi[0]) ** 2 + (pj[1] - pi[1]) ** 2 + (pj[2] - pi[2]) ** 2) * scale)
            b = min(b, nbins - 1)
            uj = u[j]
            c[b] += ui[0] * uj[0] + ui[1] * uj[1] + ui[2] * uj[2]
            cnt[b] += 1
    r = [(b + 0.5) * size / nbins for b in range(nbins)]
    c = [c[b] / cnt[b] / c0 if cnt[b] and c0 > 0 else 0.0 for b in range(nbins)]
    length, prev = -1.0, -1
    for b in range(nbins):
        if c0 <= 0:
            break
        if cnt[b] == 0:
            continue
        if c[b] <= 0:
            length = r[b] if prev < 0 else r[prev] + (r[b] - r[prev]) * c[prev] / (c[prev] - c[b])
            break
        prev = b
    return length, r, c


def measure(pos, vel, link, vmin, vmax, close_factor=0.3, border_frac=0.2, corr_bins=40,
            remove_rigid=True, pair_limit=PY_PAIR_LIMIT):
    """The mur_shape_measure row as a dict keyed by COLUMNS (None if the group is too small)."""
    members = biggest_group(label_groups(pos, link)) if link > 0 else list(range(len(pos)))
    if len(members) < KMAX + 2:
        return None
    gp = [pos[i] for i in members]
    gv = [vel[i] for i in members]
    m = len(gp)
    ex = extents(gp, gv)
    mean, cv, at = speeds(gv, vmin, vmax)
    nbr, dist = knn(gp, KMAX)
    nn = [d[0] for d in dist]
    cut = close_factor * sum(nn) / m
    border = border_flags(gp, ex, border_frac)
    nb = sum(border)
    sb = sum(nn[i] for i in range(m) if border[i])
    si = sum(nn[i] for i in range(m) if not border[i])
    ratio = (sb / nb) / (si / (m - nb)) if 0 < nb < m and si > 0 else -1.0
    size = diameter(gp)
    length, _, _ = corr(gp, gv, corr_bins, size, remove_rigid, pair_limit)
    row = dict(thin=ex["extent"][0], mid=ex["extent"][1], long=ex["extent"][2],
               thin_angle_deg=ex["thin_angle"], vel_thin_angle_deg=ex["vel_thin_angle"],
               group_polarisation=polarisation(gv), speed_mean=mean, speed_cv=cv, at_limit_frac=at,
               close_frac=sum(1 for d in nn if d < cut) / m, border_ratio=ratio, corr_len=length,
               flock_size=size, group_size=m)
    for k, g in enumerate(gamma(gp, ex, nbr, border, KMAX)):
        row["gamma%d" % (k + 1)] = g
    return row
