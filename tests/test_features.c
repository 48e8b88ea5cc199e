/* Perching, predators, goal, wind, scatter, flock formation, long runs, CSV state and the parameter
 * table, through the public API. */
#include <unistd.h>

#include "util.h"

static const float *P(const mur_flock *f, int i) { return mur_flock_view(f).pos + 3 * i; }

/* A boid crossing the ground lands, stays exactly still for its timer, then takes off. */
static void perching_cycle(void **s)
{
    (void)s;
    mur_flock_def d = neutral_def(1);
    d.perch = true;
    d.ground = 0.0f;
    d.perch_min = 5;
    d.perch_max = 9;
    d.bounds = MUR_BOUNDS_NONE; /* soft bounds would push it up before it lands */
    d.world_min[1] = 0.0f;
    d.bounds_margin = 5.0f;
    d.bounds_turn = 4.0f;
    d.min_speed = 1.0f;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0.5f, 0, 0.3f, -1, 0);
    mur_flock_step(f);
    mur_view v = mur_flock_view(f);
    assert_near(v.pos[1], 0.0, 0.0);
    assert_vec(v.vel, 0, 0, 0, 0);
    int32_t timer = v.perch[0];
    assert_true(timer >= 5 && timer <= 9);
    float x0 = v.pos[0], z0 = v.pos[2];
    mur_flock_set_bounds(f, MUR_BOUNDS_SOFT);
    for (int t = 0; t < timer; t++) {
        assert_true(mur_flock_view(f).perch[0] == timer - t);
        mur_flock_step(f);
        assert_true(P(f, 0)[0] == x0 && P(f, 0)[1] == 0.0f && P(f, 0)[2] == z0);
    }
    assert_int_equal(mur_flock_view(f).perch[0], 0);
    mur_flock_step(f); /* takes off: the soft floor pushes it up */
    assert_int_equal(mur_flock_view(f).perch[0], 0);
    assert_true(P(f, 0)[1] > 0.0f);
    mur_flock_destroy(f);
}

/* Perch timers are spread over [perch_min, perch_max]; switching perching off releases everyone. */
static void perching_toggle(void **s)
{
    (void)s;
    mur_flock_def d = neutral_def(500);
    d.perch = true;
    d.ground = 0.0f;
    d.perch_min = 10;
    d.perch_max = 20;
    mur_flock *f = make(&d);
    for (int i = 0; i < 500; i++)
        put(f, i, (float)(i % 50) * 3.0f, 0.2f, (float)(i / 50) * 3.0f, 0, -1, 0);
    mur_flock_step(f);
    mur_view v = mur_flock_view(f);
    int seen[21] = {0};
    for (int i = 0; i < 500; i++) {
        assert_true(v.perch[i] >= 10 && v.perch[i] <= 20);
        seen[v.perch[i]]++;
    }
    int distinct = 0;
    for (int k = 10; k <= 20; k++)
        distinct += seen[k] > 0;
    assert_true(distinct >= 10);
    assert_int_equal(mur_flock_measure(f).perching, 500);
    mur_flock_set_perch(f, false);
    v = mur_flock_view(f);
    for (int i = 0; i < 500; i++)
        assert_int_equal(v.perch[i], 0);
    assert_int_equal(mur_flock_measure(f).perching, 0);
    mur_flock_destroy(f);
}

/* Boids within predator_radius move away; hidden predators have no effect at once. */
static void predators_scare(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    d.boids = 400;
    d.predators = 1;
    d.predator_radius = 15.0f;
    d.flee = 20.0f;
    mur_flock *f = make(&d);
    const float c[3] = {0, 30, 0}, z[3] = {0, 0, 0};
    for (int i = 0; i < 400; i++) {
        float p[3] = {c[0] + (float)((i % 7) - 3) * 2.0f, c[1] + (float)((i / 7) % 7 - 3) * 2.0f,
                      c[2] + (float)(i / 49 - 4) * 2.0f};
        float v[3] = {0, 0, 1};
        assert_true(mur_flock_set_boid(f, i, p, v, 0));
    }
    assert_true(mur_flock_set_predator(f, 0, c, z));
    double before = 0.0, after = 0.0;
    for (int i = 0; i < 400; i++)
        for (int a = 0; a < 3; a++)
            before += (P(f, i)[a] - c[a]) * (P(f, i)[a] - c[a]);
    mur_flock_steps(f, 10);
    mur_view v = mur_flock_view(f);
    for (int i = 0; i < 400; i++)
        for (int a = 0; a < 3; a++)
            after += (v.pos[3 * i + a] - v.pred_pos[a]) * (v.pos[3 * i + a] - v.pred_pos[a]);
    assert_true(after > 1.5 * before);
    /* the predator chases: it moved */
    assert_true(fabs(v.pred_pos[0] - c[0]) + fabs(v.pred_pos[1] - c[1]) + fabs(v.pred_pos[2] - c[2]) > 0.1);
    /* hiding keeps count and positions, and the predator no longer moves */
    float keep[3] = {v.pred_pos[0], v.pred_pos[1], v.pred_pos[2]};
    mur_flock_set_predators_on(f, false);
    mur_flock_step(f);
    v = mur_flock_view(f);
    assert_int_equal(v.predators, 1);
    assert_false(v.predators_on);
    assert_true(v.pred_pos[0] == keep[0] && v.pred_pos[1] == keep[1] && v.pred_pos[2] == keep[2]);
    assert_int_equal(mur_flock_stats(f).predators, 0);
    mur_flock_destroy(f);
}

/* predator_turn is the fraction of the way to the target velocity a predator turns per second: 0
 * leaves a predator at rest where it is; dt * turn >= 1 takes the full target velocity in one tick. */
static void predator_turn_rate(void **s)
{
    (void)s;
    mur_flock_def d = neutral_def(1);
    d.predators = 1;
    d.predator_speed = 5.0f;
    d.dt = 0.1f;
    mur_flock *f = make(&d);
    const float b[3] = {10, 0, 0}, z[3] = {0, 0, 0};
    assert_true(mur_flock_set_boid(f, 0, b, z, 0));
    assert_true(mur_flock_set_predator(f, 0, z, z));
    assert_true(mur_flock_set(f, "predator_turn", "0", NULL));
    mur_flock_steps(f, 5);
    mur_view v = mur_flock_view(f);
    assert_true(v.pred_pos[0] == 0.0f && v.pred_vel[0] == 0.0f);
    /* 2/s at dt 0.1: a fifth of the way to (5, 0, 0) wu/s in one tick */
    assert_true(mur_flock_set(f, "predator_turn", "2", NULL));
    mur_flock_step(f);
    v = mur_flock_view(f);
    assert_near(v.pred_vel[0], 1.0, 1e-5);
    /* 20/s: all the way at once, never past it */
    assert_true(mur_flock_set(f, "predator_turn", "20", NULL));
    mur_flock_step(f);
    v = mur_flock_view(f);
    assert_near(v.pred_vel[0], 5.0, 1e-5);
    mur_error err;
    assert_false(mur_flock_set(f, "predator_turn", "-1", &err));
    assert_true(strstr(err.msg, "predator_turn") != NULL);
    mur_flock_destroy(f);
}

/* The metrics CSV columns: the names and number formats of the CSV contract, one row per tick. */
static void stats_columns(void **s)
{
    (void)s;
    /* the first ten columns keep their names and order; time_s (issue 27) and issue 24's and issue 26's columns are appended */
    const char *want = "tick,centre_x,centre_y,centre_z,diameter,polarisation,mean_neighbours,nn_distance,perching,groups,"
                       "time_s,thin_tilt,neighbour_turnover,at_speed_limit,heading_changes,splits,merges,"
                       "heading_changes_per_min,splits_per_min,merges_per_min,"
                       "falcon_distance,alarmed,falcon_state,falcon_near,falcon_nn\n";
    char got[1024] = "";
    for (int i = 0; i < mur_stats_column_count(); i++) {
        strcat(got, mur_stats_column_name(i));
        strcat(got, i + 1 < mur_stats_column_count() ? "," : "\n");
    }
    assert_string_equal(got, want);
    assert_null(mur_stats_column_name(-1));
    assert_null(mur_stats_column_name(mur_stats_column_count()));
    mur_stats st;
    memset(&st, 0, sizeof st);
    st.tick = 18446744073709551615ULL;
    st.centre[0] = 1.0 / 3.0;
    st.centre[1] = -2.5;
    st.centre[2] = 1e-20;
    st.diameter = 123456789.123;
    st.polarisation = 0.999999999;
    st.mean_neighbours = 30;
    st.nn_distance = 0.1;
    st.perching = 7;
    st.groups = -1;
    st.time_s = 12.25;
    st.thin_tilt = 45.5;
    st.neighbour_turnover = -1.0;
    st.at_speed_limit = 0.25;
    st.heading_changes = 9007199254740993LL;
    st.splits = 2;
    st.merges = 3;
    st.heading_changes_per_min = 1.5;
    st.splits_per_min = 0.5;
    st.merges_per_min = 0.75;
    st.falcon_near = 12;
    st.falcon_nn = 1.25;
    char cell[8];
    assert_int_equal(mur_stats_column_text(&st, mur_stats_column_count(), cell, sizeof cell), -1);
    /* snprintf semantics: the length needed, the text cut to fit */
    assert_int_equal(mur_stats_column_text(&st, 0, cell, sizeof cell), 20);
    assert_string_equal(cell, "1844674");
    FILE *fp = tmpfile();
    assert_non_null(fp);
    assert_true(mur_stats_write_header(fp));
    assert_true(mur_stats_write_row(fp, &st));
    rewind(fp);
    char text[2048] = "";
    size_t n = fread(text, 1, sizeof text - 1, fp);
    text[n] = 0;
    fclose(fp);
    assert_string_equal(text, "tick,centre_x,centre_y,centre_z,diameter,polarisation,mean_neighbours,nn_distance,"
                              "perching,groups,time_s,thin_tilt,neighbour_turnover,at_speed_limit,heading_changes,"
                              "splits,merges,heading_changes_per_min,splits_per_min,merges_per_min,falcon_distance,alarmed,falcon_state,"
                              "falcon_near,falcon_nn\n"
                              "18446744073709551615,0.333333333,-2.5,1e-20,123456789,0.999999999,"
                              "30,0.1,7,-1,12.25,45.5,-1,0.25,9007199254740993,2,3,1.5,0.5,0.75,0,0,0,12,1.25\n");
}

static double centre_distance(mur_flock *f, const float *g)
{
    mur_stats st = mur_flock_measure(f);
    double d2 = 0;
    for (int a = 0; a < 3; a++)
        d2 += (st.centre[a] - g[a]) * (st.centre[a] - g[a]);
    return sqrt(d2);
}

/* The goal pulls the flock centre toward it; the wind carries the flock downwind. */
static void goal_and_wind_flock(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    d.boids = 1000;
    mur_flock *f = make(&d);
    const float g[3] = {40, 20, 40};
    double d0 = centre_distance(f, g);
    mur_flock_set_goal(f, true, g);
    mur_flock_steps(f, 300);
    assert_true(centre_distance(f, g) < 0.5 * d0);
    mur_flock_destroy(f);

    f = make(&d);
    double x0 = mur_flock_measure(f).centre[0];
    const float w[3] = {8, 0, 0};
    mur_flock_set_wind(f, true, w);
    mur_flock_steps(f, 200);
    assert_true(mur_flock_measure(f).centre[0] > x0 + 15.0);
    mur_flock_destroy(f);
}

/* Scatter: a compact flock's diameter rises while it is on and falls again after. */
static void scatter_and_reform(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    d.boids = 500;
    mur_flock *f = make(&d);
    for (int i = 0; i < 500; i++) {
        /* an 8x8x8 lattice, 3 apart (about the separation radius), all flying +x */
        float p[3] = {-30.0f + (float)(i % 8) * 3.0f, 20.0f + (float)((i / 8) % 8) * 3.0f, -12.0f + (float)(i / 64) * 3.0f};
        float v[3] = {8, 0, 0};
        assert_true(mur_flock_set_boid(f, i, p, v, 0));
    }
    mur_flock_steps(f, 100);
    mur_stats formed = mur_flock_measure(f);
    mur_flock_set_scatter(f, true);
    mur_flock_steps(f, 150);
    mur_stats scattered = mur_flock_measure(f);
    mur_flock_set_scatter(f, false);
    mur_flock_steps(f, 400);
    mur_stats reformed = mur_flock_measure(f);
    print_message("diameter formed %.1f, after scatter %.1f, re-formed %.1f; neighbours %.1f %.1f %.1f\n",
                  formed.diameter, scattered.diameter, reformed.diameter, formed.mean_neighbours,
                  scattered.mean_neighbours, reformed.mean_neighbours);
    assert_true(scattered.diameter > 1.3 * formed.diameter);
    assert_true(reformed.diameter < 0.8 * scattered.diameter);
    mur_flock_destroy(f);
}

/* MURMUR_TEST_QUICK=1 (the valgrind setup): fewer seeds and boids in the longest tests. */
static bool quick(void)
{
    const char *q = getenv("MURMUR_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* From a random start with default parameters a flock forms over 1000 ticks. */
static void flock_forms(void **s)
{
    (void)s;
    for (uint64_t seed = 1; seed <= (quick() ? 1u : 3u); seed++) {
        mur_flock_def d = mur_flock_default_def();
        d.seed = seed;
        mur_flock *f = make(&d);
        mur_flock_set_threads(f, 2);
        mur_stats a = mur_flock_measure(f);
        double diam = 0.0, pol = 0.0;
        mur_flock_set_metrics(f, true);
        for (int t = 0; t < 1000; t++) {
            mur_flock_step(f);
            if (t >= 900) {
                mur_stats st = mur_flock_stats(f);
                assert_true(st.metrics_valid);
                diam += st.diameter / 100.0;
                pol += st.polarisation / 100.0;
            }
        }
        mur_stats b = mur_flock_measure(f);
        print_message("seed %llu: diameter %.1f -> %.1f, polarisation %.2f -> %.2f, groups %d -> %d, neighbours %.1f -> %.1f\n",
                      (unsigned long long)seed, a.diameter, diam, a.polarisation, pol, a.groups, b.groups,
                      a.mean_neighbours, b.mean_neighbours);
        assert_true(diam < 0.9 * a.diameter);
        assert_true(pol > 0.3 && pol > 5 * a.polarisation);
        assert_true(b.groups < a.groups / 10);
        assert_true(b.mean_neighbours > 3 * a.mean_neighbours);
        mur_flock_destroy(f);
    }
}

static bool finite_and_inside(mur_flock *f, double margin)
{
    mur_flock_def d = mur_flock_get_def(f);
    mur_view v = mur_flock_view(f);
    for (int32_t i = 0; i < v.boids; i++) {
        for (int a = 0; a < 3; a++) {
            float p = v.pos[3 * i + a], u = v.vel[3 * i + a];
            if (!isfinite(p) || !isfinite(u))
                return false;
            if (d.bounds != MUR_BOUNDS_NONE && (p < d.world_min[a] - margin || p > d.world_max[a] + margin))
                return false;
        }
        if (v.perch[i] < 0 || v.perch[i] > d.perch_max)
            return false;
    }
    return true;
}

/* 10^7 boid-ticks with every toggle switching on a schedule: always finite and inside the box. */
static void long_run(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    d.boids = quick() ? 1000 : 5000;
    d.predators = 3;
    mur_flock *f = make(&d);
    mur_flock_set_threads(f, 2);
    const mur_bounds modes[] = {MUR_BOUNDS_SOFT, MUR_BOUNDS_BOUNCE, MUR_BOUNDS_WRAP, MUR_BOUNDS_SOFT};
    for (int t = 0; t < 2000; t++) {
        if (t % 100 == 0) {
            int k = t / 100;
            mur_flock_set_perch(f, k % 2 == 0);
            mur_flock_set_predators_on(f, k % 3 != 0);
            mur_flock_set_goal(f, k % 4 == 1, NULL);
            mur_flock_set_wind(f, k % 5 == 2, NULL);
            mur_flock_set_scatter(f, k % 7 == 3);
            mur_flock_set_bounds(f, modes[(k / 2) % 4]);
        }
        mur_flock_step(f);
        if (t % 50 == 49) {
            mur_flock_def cur = mur_flock_get_def(f);
            /* soft bounds let boids overshoot by the distance covered while turning back */
            double margin = cur.bounds == MUR_BOUNDS_SOFT ? 4.0 * cur.max_speed * cur.max_speed / cur.bounds_turn : 1e-3;
            if (!finite_and_inside(f, margin))
                fail_msg("tick %d: a boid is non-finite or outside the box (bounds %s)", t, mur_bounds_name(cur.bounds));
        }
    }
    mur_flock_destroy(f);
}

static void csv_round_trip(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    d.boids = 777;
    d.predators = 2;
    d.perch = true;
    mur_flock *f = make(&d);
    mur_flock_steps(f, 300);
    char path[] = "/tmp/murmur_csv_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    mur_error err;
    assert_true(mur_flock_save_csv(f, path, &err));
    mur_flock *g = mur_flock_load_csv(&d, path, &err);
    assert_non_null(g);
    mur_view a = mur_flock_view(f), b = mur_flock_view(g);
    assert_int_equal(a.boids, b.boids);
    assert_int_equal(a.predators, b.predators);
    assert_memory_equal(a.pos, b.pos, sizeof(float) * 3 * (size_t)a.boids);
    assert_memory_equal(a.vel, b.vel, sizeof(float) * 3 * (size_t)a.boids);
    assert_memory_equal(a.perch, b.perch, sizeof(int32_t) * (size_t)a.boids);
    assert_memory_equal(a.pred_pos, b.pred_pos, sizeof(float) * 3 * (size_t)a.predators);
    /* the same next tick from the reloaded state */
    mur_flock_set_threads(f, 1);
    mur_flock_step(f);
    mur_flock_step(g);
    assert_memory_equal(mur_flock_view(f).pos, mur_flock_view(g).pos, sizeof(float) * 3 * (size_t)a.boids);
    unlink(path);
    mur_flock_destroy(f);
    mur_flock_destroy(g);
}

static void parameter_table(void **s)
{
    (void)s;
    const char *names[] = {"boids", "predators", "seed", "dt", "view_radius", "view_angle", "cohesion",
                           "alignment", "separation", "separation_radius", "min_speed", "max_speed", "bounds",
                           "world_min", "world_max", "bounds_margin", "bounds_turn", "perch", "ground",
                           "perch_min", "perch_max", "goal", "goal_pos", "goal_weight", "wind", "wind_vel",
                           "scatter", "predator_radius", "predator_speed", "flee", "neighbour_search", "world"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const mur_param *p = mur_param_find(names[i]);
        if (!p)
            fail_msg("parameter %s missing from the table", names[i]);
        assert_non_null(p->meaning);
    }
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_check(&d, NULL));
    mur_error e;
    /* every default survives text -> value -> text */
    for (int i = 0; i < mur_param_count(); i++) {
        char buf[128], again[128];
        const mur_param *p = mur_param_at(i);
        assert_true(mur_def_get(&d, p->name, buf, sizeof buf));
        mur_flock_def t = d;
        assert_true(mur_def_set(&t, p->name, buf, &e));
        assert_true(mur_def_get(&t, p->name, again, sizeof again));
        assert_string_equal(buf, again);
    }
    assert_true(mur_def_set_pair(&d, " bounds = wrap ", &e));
    assert_int_equal(d.bounds, MUR_BOUNDS_WRAP);
    assert_true(mur_def_set(&d, "goal_pos", "1,-2.5,3e1", &e));
    assert_near(d.goal_pos[2], 30.0, 0);
    const char *bad[][2] = {{"view_radius", "-1"}, {"view_radius", "0"}, {"view_angle", "361"}, {"view_angle", "0"},
                            {"dt", "nan"}, {"dt", "inf"}, {"boids", "-5"}, {"boids", "1.5"}, {"boids", "abc"},
                            {"goal_pos", "1,2"}, {"goal_pos", "1,2,3,4"}, {"perch", "maybe"}, {"bounds", "box"},
                            {"seed", "-1"}, {"cohesion", "1e400"}, {"nonsense", "1"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mur_flock_def t = mur_flock_default_def();
        e.msg[0] = 0;
        if (mur_def_set(&t, bad[i][0], bad[i][1], &e))
            fail_msg("%s=%s accepted", bad[i][0], bad[i][1]);
        assert_non_null(strstr(e.msg, bad[i][0]));
    }
    mur_flock_def t = mur_flock_default_def();
    t.min_speed = 20.0f;
    t.max_speed = 10.0f;
    assert_false(mur_def_check(&t, &e));
    assert_non_null(strstr(e.msg, "min_speed"));
    t = mur_flock_default_def();
    t.world_min[1] = 100.0f;
    assert_false(mur_def_check(&t, &e));
    t = mur_flock_default_def();
    t.perch_min = 50;
    t.perch_max = 10;
    assert_false(mur_def_check(&t, &e));
    assert_null(mur_flock_create(&t, &e));
    /* live setters take effect and reject bad values without changing the flock */
    mur_flock *f = make(&d);
    assert_true(mur_flock_set(f, "cohesion", "2.5", &e));
    assert_near(mur_flock_get_def(f).cohesion, 2.5, 0);
    assert_false(mur_flock_set(f, "cohesion", "nan", &e));
    assert_false(mur_flock_set(f, "seed", "5", &e));
    assert_false(mur_flock_set(f, "min_speed", "1000", &e));
    assert_near(mur_flock_get_def(f).cohesion, 2.5, 0);
    assert_true(mur_flock_set(f, "boids", "3000", &e));
    assert_int_equal(mur_flock_view(f).boids, 3000);
    assert_true(mur_flock_set_boid_count(f, 10, &e));
    assert_int_equal(mur_flock_view(f).boids, 10);
    assert_false(mur_flock_set_boid_count(f, -1, &e));
    mur_flock_step(f);
    mur_flock_destroy(f);
    mur_flock_destroy(NULL);
}

/* Memory stays lean: at most 96 bytes a boid at 100k (metrics on). */
static void memory_per_boid(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    d.boids = 100000;
    mur_flock *f = make(&d);
    mur_flock_set_metrics(f, true);
    mur_flock_step(f);
    double per = (double)mur_flock_memory(f) / d.boids;
    print_message("%.1f bytes per boid\n", per);
    assert_true(per <= 96.0);
    mur_flock_destroy(f);
}

/* mur_def_memory, computed from the def alone, is the figure the created flock reports. */
static void memory_before_create(void **s)
{
    (void)s;
    const int32_t counts[] = {0, 1, 2000, 123457};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int threads = 0; threads <= 3; threads++)
            for (int metrics = 0; metrics <= 1; metrics++) {
                mur_flock_def d = mur_flock_default_def();
                d.boids = counts[c];
                d.predators = threads == 2 ? 5 : 0;
                size_t want = mur_def_memory(&d, threads, metrics);
                mur_flock *f = make(&d);
                mur_flock_set_threads(f, threads);
                if (metrics)
                    mur_flock_set_metrics(f, true);
                size_t got = mur_flock_memory(f);
                if (got != want)
                    fail_msg("%d boids, %d threads, metrics %d: predicted %zu bytes, flock holds %zu",
                             (int)d.boids, threads, metrics, want, got);
                mur_flock_destroy(f);
            }
    mur_flock_def big = mur_flock_default_def();
    big.boids = MUR_MAX_BOIDS; /* nothing is allocated: a count far beyond the machine is fine */
    assert_true(mur_def_memory(&big, 1, true) > (size_t)MUR_MAX_BOIDS * 60u);
}

/* world=scale: identity at the reference count and for fixed; the geometry scales with cbrt(N/2000);
 * boids spawn in the scaled box, also when the count grows on a live flock. */
static void world_scale(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    assert_int_equal(d.world, MUR_WORLD_FIXED);
    d.boids = 16000;
    assert_true(mur_def_world_scale(&d) == 1.0);
    mur_flock_def r = mur_def_resolved(&d);
    assert_memory_equal(&r, &d, sizeof d);
    assert_true(mur_def_set(&d, "world", "scale", NULL));
    assert_near(mur_def_world_scale(&d), 2.0, 1e-12);
    r = mur_def_resolved(&d);
    for (int a = 0; a < 3; a++) {
        assert_near(r.world_min[a], 2.0 * d.world_min[a], 1e-4);
        assert_near(r.world_max[a], 2.0 * d.world_max[a], 1e-4);
        assert_near(r.goal_pos[a], 2.0 * d.goal_pos[a], 1e-4);
    }
    assert_near(r.bounds_margin, 2.0 * d.bounds_margin, 1e-4);
    d.boids = MUR_WORLD_REF_BOIDS;
    assert_true(mur_def_world_scale(&d) == 1.0);
    r = mur_def_resolved(&d);
    assert_memory_equal(&r, &d, sizeof d);
    /* spawned boids fill the scaled box: some lie beyond the given one */
    d.boids = 16000;
    d.bounds = MUR_BOUNDS_NONE;
    mur_flock *f = make(&d);
    mur_flock_def given = mur_flock_get_def(f);
    assert_int_equal(given.world, MUR_WORLD_SCALE);
    assert_near(given.world_max[0], 60.0, 0); /* the def keeps the values as given */
    mur_view v = mur_flock_view(f);
    int outside = 0;
    for (int32_t i = 0; i < v.boids; i++) {
        float x = v.pos[3 * i];
        assert_true(x >= 2.0f * d.world_min[0] - 1e-3f && x <= 2.0f * d.world_max[0] + 1e-3f);
        outside += x > d.world_max[0];
    }
    assert_true(outside > v.boids / 5); /* a quarter of [-120, 120] lies beyond 60 */
    /* growing to 128000 (scale 4): the new boids spawn up to 4x the given box */
    assert_true(mur_flock_set_boid_count(f, 128000, NULL));
    v = mur_flock_view(f);
    float far = 0.0f;
    for (int32_t i = 16000; i < v.boids; i++)
        far = fmaxf(far, v.pos[3 * i]);
    assert_true(far > 3.5f * d.world_max[0] && far <= 4.0f * d.world_max[0] + 1e-2f);
    char buf[16];
    assert_true(mur_def_get(&given, "world", buf, sizeof buf));
    assert_string_equal(buf, "scale");
    mur_error e;
    assert_false(mur_def_set(&d, "world", "grow", &e));
    assert_non_null(strstr(e.msg, "fixed|scale"));
    mur_flock_destroy(f);
}

/* A saved starling state (banked turns: the roll column) loaded and given its clock back continues as
 * the flock that was never saved, to the bit; the clock is the tick and the sum of every tick's dt. */
static void outputs_state_resume(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = 400;
    mur_flock *f = make(&d);
    mur_flock_steps(f, 60);
    mur_view v = mur_flock_view(f);
    assert_true(v.time_s == 60.0 * (double)d.dt || fabs(v.time_s - 60.0 * (double)d.dt) < 1e-9);
    char path[] = "/tmp/murmur_resume_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    mur_error err;
    assert_true(mur_flock_save_csv(f, path, &err));
    mur_flock *g = mur_flock_load_csv(&d, path, &err);
    assert_non_null(g);
    assert_memory_equal(mur_flock_view(g).roll, v.roll, sizeof(float) * (size_t)v.boids);
    assert_int_equal(mur_flock_view(g).tick, 0);
    assert_false(mur_flock_set_clock(g, 60, NAN, &err));
    assert_non_null(strstr(err.msg, "time"));
    assert_false(mur_flock_set_clock(g, 60, -1.0, &err));
    assert_true(mur_flock_set_clock(g, v.tick, v.time_s, &err));
    assert_int_equal(mur_flock_hash(g), mur_flock_hash(f));
    mur_flock_steps(f, 40);
    mur_flock_steps(g, 40);
    assert_int_equal(mur_flock_hash(g), mur_flock_hash(f));
    assert_true(mur_flock_view(g).time_s == mur_flock_view(f).time_s);
    assert_true(mur_flock_measure(g).time_s == mur_flock_view(f).time_s);
    unlink(path);
    mur_flock_destroy(f);
    mur_flock_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(perching_cycle),   cmocka_unit_test(perching_toggle),
        cmocka_unit_test(predators_scare),  cmocka_unit_test(goal_and_wind_flock),
        cmocka_unit_test(scatter_and_reform), cmocka_unit_test(flock_forms),
        cmocka_unit_test(long_run),         cmocka_unit_test(csv_round_trip),
        cmocka_unit_test(parameter_table),  cmocka_unit_test(memory_per_boid),
        cmocka_unit_test(predator_turn_rate), cmocka_unit_test(stats_columns),
        cmocka_unit_test(memory_before_create), cmocka_unit_test(world_scale),
        cmocka_unit_test(outputs_state_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
