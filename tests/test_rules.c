/* Each rule against a hand-computed case (docs/rules.md), and one tick against Parker's pseudocode. */
#include "util.h"

static const float *P(const mur_flock *f, int i) { return mur_flock_view(f).pos + 3 * i; }
static const float *V(const mur_flock *f, int i) { return mur_flock_view(f).vel + 3 * i; }

/* One tick of a small hand-made flock: the rules a case switches on (mur_def_set_pair syntax, on top
 * of neutral_def), the boids (x, y, z, vx, vy, vz) and what the tick must give. */
typedef struct expect {
    int boid;
    char what; /* 'v' velocity, 'p' position */
    double x, y, z, tol;
} expect;

typedef struct tick_case {
    const char *name, *set;
    int n;
    float boid[3][6];
    expect want[4];
} tick_case;

static const tick_case TICKS[] = {
    /* A(0,0,0) sees B(2,0,0) and C(0,2,0): perceived centre (1,1,0), acc 0.5*(1,1,0); B: centre of A
     * and C is (0,1,0), offset (-2,1,0) */
    {"cohesion", "cohesion=0.5 dt=0.1", 3, {{0, 0, 0, 1, 0, 0}, {2, 0, 0, 1, 0, 0}, {0, 2, 0, 1, 0, 0}},
     {{0, 'v', 1.05, 0.05, 0, 1e-6}, {0, 'p', 0.105, 0.005, 0, 1e-6}, {1, 'v', 0.9, 0.05, 0, 1e-6}}},
    /* A and B at rest 1 apart, radius 2, weight 3: each pushed 3 units/s^2 apart; C is a neighbour
     * outside the separation radius */
    {"separation", "separation=3 separation_radius=2", 3, {{0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0}, {0, 5, 0, 0, 0, 0}},
     {{0, 'v', -3, 0, 0, 1e-6}, {0, 'p', -3, 0, 0, 1e-6}, {1, 'v', 3, 0, 0, 1e-6}, {2, 'v', 0, 0, 0, 1e-6}}},
    /* A moves +x, B moves +y: A steers by 0.5*((0,1,0)-(1,0,0)) */
    {"alignment", "alignment=0.5", 2, {{0, 0, 0, 1, 0, 0}, {1, 0, 0, 0, 1, 0}},
     {{0, 'v', 0.5, 0.5, 0, 1e-6}, {1, 'v', 0.5, 0.5, 0, 1e-6}}},
    /* B 3.5 away is beyond view_radius 3 */
    {"vision_radius", "cohesion=1 view_radius=3", 2, {{0, 0, 0, 0, 0, 0}, {3.5f, 0, 0, 0, 0, 0}},
     {{0, 'v', 0, 0, 0, 0}, {1, 'v', 0, 0, 0, 0}}},
    /* a view cone of 90 degrees: B ahead is seen, C behind is not (1 + cohesion*(1,0,0)) */
    {"view_cone", "cohesion=1 view_angle=90", 3, {{0, 0, 0, 1, 0, 0}, {1, 0, 0, 0, 0, 0}, {-1, 0, 0, 0, 0, 0}},
     {{0, 'v', 2, 0, 0, 1e-6}}},
    /* all round, the two pulls cancel */
    {"view_all_round", "cohesion=1 view_angle=360", 3, {{0, 0, 0, 1, 0, 0}, {1, 0, 0, 0, 0, 0}, {-1, 0, 0, 0, 0, 0}},
     {{0, 'v', 1, 0, 0, 1e-6}}},
    /* speed limits keep the direction; a zero velocity stays zero (and finite) */
    {"speed_limits", "max_speed=2 min_speed=1 view_radius=0.5", 3,
     {{0, 0, 0, 3, 4, 0}, {50, 0, 0, 0.3f, 0, 0.4f}, {-50, 0, 0, 0, 0, 0}},
     {{0, 'v', 1.2, 1.6, 0, 1e-6}, {1, 'v', 0.6, 0, 0.8, 1e-6}, {2, 'v', 0, 0, 0, 0}}},
    /* inside the margin of the low x wall (and the high z wall) the push is bounds_turn */
    {"soft_bounds", "bounds=soft bounds_margin=5 bounds_turn=2", 1, {{-99, 0, 98, 0, 0, 0}},
     {{0, 'v', 2, 0, -2, 1e-6}}},
    /* A at x=0.5 and B at x=9.5 in a 10-wide box are 1 apart through the wall; 0.5 - 1 wraps to 9.5 */
    {"wrap_bounds", "bounds=wrap cohesion=1 view_radius=2 world_min=0,0,0 world_max=10,10,10", 2,
     {{0.5f, 5, 5, 0, 0, 0}, {9.5f, 5, 5, 0, 0, 0}},
     {{0, 'v', -1, 0, 0, 1e-5}, {0, 'p', 9.5, 5, 5, 1e-5}, {1, 'v', 1, 0, 0, 1e-5}, {1, 'p', 0.5, 5, 5, 1e-5}}},
    /* leaving through x = 10 puts the boid on the wall with vx reversed */
    {"bounce_bounds", "bounds=bounce world_min=0,0,0 world_max=10,10,10", 1, {{9.5f, 5, 5, 1, 0.5f, 0}},
     {{0, 'p', 10, 5.5, 5, 1e-6}, {0, 'v', -1, 0.5, 0, 1e-6}}},
    /* steer_unit: cohesion and alignment vectors scaled to length 1 before weighting */
    {"steer_unit", "cohesion=1 alignment=1 steer_unit=on", 2, {{0, 0, 0, 0, 0, 0}, {4, 0, 0, 0, 0, 3}},
     {{0, 'v', 1, 0, 1, 1e-6}}},
};

/* neutral_def with the space-separated name=value pairs of set on top. */
static mur_flock_def def_with(int n, const char *set)
{
    mur_flock_def d = neutral_def(n);
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", set);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        mur_error err = {{0}};
        if (!mur_def_set_pair(&d, t, &err))
            fail_msg("%s: %s", t, err.msg);
    }
    return d;
}

/* A flock of d->boids boids placed from b (x, y, z, vx, vy, vz each). */
static mur_flock *scene(const mur_flock_def *d, const float (*b)[6])
{
    mur_flock *f = make(d);
    for (int i = 0; i < d->boids; i++)
        put(f, i, b[i][0], b[i][1], b[i][2], b[i][3], b[i][4], b[i][5]);
    return f;
}

static void one_tick(void **state)
{
    const tick_case *c = *state;
    const mur_flock_def d = def_with(c->n, c->set);
    mur_flock *f = scene(&d, c->boid);
    mur_flock_step(f);
    for (int k = 0; k < 4 && c->want[k].what; k++) {
        const expect *w = &c->want[k];
        assert_vec(w->what == 'p' ? P(f, w->boid) : V(f, w->boid), w->x, w->y, w->z, w->tol);
    }
    mur_flock_destroy(f);
}

static const float TRIO[3][6] = {{0, 0, 0, 1, 0, 0}, {2, 0, 0, 1, 0, 0}, {0, 2, 0, 1, 0, 0}};

/* Scatter negates cohesion (Parker's m1 = -1), and switches off again. */
static void scatter(void **state)
{
    (void)state;
    const mur_flock_def d = def_with(3, "cohesion=0.5 dt=0.1");
    mur_flock *f = scene(&d, TRIO);
    mur_flock_set_scatter(f, true);
    mur_flock_step(f);
    assert_vec(V(f, 0), 0.95, -0.05, 0.0, 1e-6);
    mur_flock_set_scatter(f, false);
    assert_false(mur_flock_get_def(f).scatter);
    mur_flock_destroy(f);
}

/* A live view_radius change takes effect on the next tick. */
static void vision_radius_live(void **state)
{
    (void)state;
    static const float B[2][6] = {{0, 0, 0, 0, 0, 0}, {3.5f, 0, 0, 0, 0, 0}};
    const mur_flock_def d = def_with(2, "cohesion=1 view_radius=3");
    mur_flock *f = scene(&d, B);
    mur_flock_step(f);
    assert_vec(V(f, 0), 0, 0, 0, 0);
    assert_true(mur_flock_set(f, "view_radius", "4", NULL));
    mur_flock_step(f);
    assert_vec(V(f, 0), 3.5, 0, 0, 1e-6);
    mur_flock_destroy(f);
}

static const float STILL[1][6] = {{0, 0, 0, 0, 0, 0}};

/* Goal (tend to place) and wind, each switched on and off at run time. */
static void goal_and_wind(void **state)
{
    (void)state;
    const mur_flock_def d = def_with(1, "goal_weight=0.1 dt=0.5");
    mur_flock *f = scene(&d, STILL);
    const float g[3] = {10, 0, -20};
    mur_flock_set_goal(f, true, g);
    mur_flock_step(f);
    assert_vec(V(f, 0), 0.5, 0, -1, 1e-6);
    mur_flock_set_goal(f, false, NULL);
    const float w[3] = {0, 0, 2};
    mur_flock_set_wind(f, true, w);
    mur_flock_step(f);
    assert_vec(V(f, 0), 0.5, 0, 0, 1e-6);
    mur_flock_set_wind(f, false, NULL);
    mur_flock_step(f);
    assert_vec(V(f, 0), 0.5, 0, 0, 1e-6);
    mur_flock_destroy(f);
}

/* Flee: a predator 1 unit away along +x inside predator_radius pushes with flee*(p_i - p_k). */
static void flee_predator(void **state)
{
    (void)state;
    const mur_flock_def d = def_with(1, "predators=1 predator_radius=2 flee=3");
    mur_flock *f = scene(&d, STILL);
    const float pp[3] = {1, 0, 0}, pv[3] = {0, 0, 0};
    assert_true(mur_flock_set_predator(f, 0, pp, pv));
    mur_flock_set_predators_on(f, false);
    mur_flock_step(f);
    assert_vec(V(f, 0), 0, 0, 0, 0); /* hidden predators have no effect */
    assert_true(mur_flock_set_predator(f, 0, pp, pv));
    mur_flock_set_predators_on(f, true);
    mur_flock_step(f);
    assert_vec(V(f, 0), -3, 0, 0, 1e-6);
    mur_flock_destroy(f);
}

/* One tick with Parker's weights equals his pseudocode (rules 1-3, in its synchronous form). */
static void parker_tick(void **state)
{
    (void)state;
    enum { N = 5 };
    const double p[N][3] = {{0, 0, 0}, {50, 20, -10}, {120, -40, 30}, {-60, 80, 10}, {30, 30, 250}};
    const double v[N][3] = {{1, 2, 3}, {-2, 0, 1}, {0, -1, -1}, {3, 3, 0}, {-1, 0, 2}};
    mur_flock_def d = neutral_def(N);
    d.cohesion = 0.01f;
    d.alignment = 0.125f;
    d.separation = 1.0f;
    d.separation_radius = 100.0f;
    d.view_radius = 1e5f; /* larger than the world: every boid sees every other */
    d.world_min[0] = d.world_min[1] = d.world_min[2] = -1000.0f;
    d.world_max[0] = d.world_max[1] = d.world_max[2] = 1000.0f;
    for (int m = 0; m < MUR_SEARCH_COUNT; m++) {
        d.neighbour_search = (mur_search)m;
        mur_flock *f = make(&d);
        for (int i = 0; i < N; i++)
            put(f, i, (float)p[i][0], (float)p[i][1], (float)p[i][2], (float)v[i][0], (float)v[i][1], (float)v[i][2]);
        mur_flock_step(f);
        for (int i = 0; i < N; i++) {
            double pc[3] = {0, 0, 0}, pv[3] = {0, 0, 0}, c[3] = {0, 0, 0};
            for (int j = 0; j < N; j++) {
                if (j == i)
                    continue;
                double dd = 0;
                for (int a = 0; a < 3; a++) {
                    pc[a] += p[j][a];
                    pv[a] += v[j][a];
                    dd += (p[j][a] - p[i][a]) * (p[j][a] - p[i][a]);
                }
                if (sqrt(dd) < 100)
                    for (int a = 0; a < 3; a++)
                        c[a] -= p[j][a] - p[i][a];
            }
            for (int a = 0; a < 3; a++) {
                double v1 = (pc[a] / (N - 1) - p[i][a]) / 100.0;
                double v3 = (pv[a] / (N - 1) - v[i][a]) / 8.0;
                double nv = v[i][a] + v1 + c[a] + v3;
                assert_near(V(f, i)[a], nv, 1e-4);
                assert_near(P(f, i)[a], p[i][a] + nv, 1e-3);
            }
        }
        mur_flock_destroy(f);
    }
}

/* Synchronous update: the result does not depend on boid order. */
static void order_independent(void **state)
{
    (void)state;
    mur_flock_def d = neutral_def(3);
    d.cohesion = 0.3f;
    d.alignment = 0.2f;
    d.separation = 1.0f;
    d.separation_radius = 3.0f;
    const float s[3][6] = {{0, 0, 0, 1, 0, 0}, {2, 1, 0, 0, 1, 0}, {-1, 2, 1, 0, 0, 1}};
    mur_flock *a = make(&d), *b = make(&d);
    for (int i = 0; i < 3; i++) {
        put(a, i, s[i][0], s[i][1], s[i][2], s[i][3], s[i][4], s[i][5]);
        put(b, 2 - i, s[i][0], s[i][1], s[i][2], s[i][3], s[i][4], s[i][5]);
    }
    mur_flock_step(a);
    mur_flock_step(b);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            assert_near(V(a, i)[k], V(b, 2 - i)[k], 1e-6);
    mur_flock_destroy(a);
    mur_flock_destroy(b);
}

/* The batched update (rules_batch.c mur_update_batch, the classic terms four boids at a time on x86) and the
 * scalar one (mur_rules_update) give the same bits: the same flock with perching on but its ground far
 * below every boid (so no boid lands) takes the scalar path, and must end in the same state, for each
 * bounds mode with goal, wind, scatter and a view cone. */
static void batch_update_matches_scalar(void **st)
{
    (void)st;
    const mur_bounds modes[] = {MUR_BOUNDS_SOFT, MUR_BOUNDS_BOUNCE, MUR_BOUNDS_NONE, MUR_BOUNDS_WRAP};
    for (int m = 0; m < 4; m++) {
        mur_flock *f[2];
        for (int k = 0; k < 2; k++) {
            mur_flock_def d = mur_flock_default_def();
            d.boids = 3000;
            d.bounds = modes[m];
            d.goal = d.wind = true;
            d.scatter = m == 1;
            d.view_angle = 270.0f;
            d.ground = -1000.0f;
            d.perch = k == 1;
            f[k] = make(&d);
            mur_flock_set_threads(f[k], 2);
            mur_flock_steps(f[k], 60);
        }
        const mur_view v = mur_flock_view(f[1]);
        for (int32_t i = 0; i < v.boids; i++)
            assert_int_equal(v.perch[i], 0);
        assert_true(mur_flock_hash(f[0]) == mur_flock_hash(f[1]));
        mur_flock_destroy(f[0]);
        mur_flock_destroy(f[1]);
    }
}

int main(void)
{
    enum { NT = sizeof TICKS / sizeof TICKS[0] };
    const struct CMUnitTest named[] = {
        cmocka_unit_test(batch_update_matches_scalar), cmocka_unit_test(scatter),
        cmocka_unit_test(vision_radius_live),          cmocka_unit_test(goal_and_wind),
        cmocka_unit_test(flee_predator),               cmocka_unit_test(parker_tick),
        cmocka_unit_test(order_independent),
    };
    enum { NN = sizeof named / sizeof named[0] };
    struct CMUnitTest tests[NT + NN];
    for (int i = 0; i < NT; i++)
        tests[i] = (struct CMUnitTest){TICKS[i].name, one_tick, NULL, NULL, (void *)&TICKS[i]};
    for (int i = 0; i < NN; i++)
        tests[NT + i] = named[i];
    return _cmocka_run_group_tests("test_rules", tests, NT + NN, NULL, NULL);
}
