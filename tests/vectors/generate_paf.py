#!/usr/bin/env python3
"""Writes tests/vectors/paf.json: PAF cases whose expected results come from this independent,
naive implementation (exact integer water-filling, Algorithm 1 by scanning every job per
transfer, as the `paf` module words it), not from the library. Floats are computed with the same
operations in the same order, so results compare bit for bit. Run from the repository root:

    python3 tests/vectors/generate_paf.py
"""
import functools
import heapq
import json
import math


def fair_shares(weights, demands, slots):
    n = len(weights)
    # d/w compared exactly by cross-multiplication, then index.
    def cmp(a, b):
        x, y = demands[a] * weights[b], demands[b] * weights[a]
        return -1 if x < y or (x == y and a < b) else 1

    order = sorted(range(n), key=functools.cmp_to_key(cmp))
    fair = [0] * n
    left, weight_left = slots, sum(weights)
    capped = 0
    for j in order:
        if demands[j] * weight_left > left * weights[j]:
            break
        fair[j] = demands[j]
        left -= demands[j]
        weight_left -= weights[j]
        capped += 1
    sharing = order[capped:]
    given = 0
    for j in sharing:
        fair[j] = left * weights[j] // weight_left
        given += fair[j]
    sharing.sort(key=lambda j: (-(left * weights[j] % weight_left), j))
    for j in sharing[: left - given]:
        fair[j] += 1
    return fair


def at(curve, x):
    return curve[min(x, len(curve) - 1)]


def increment(curve, x):
    return curve[x] - curve[x - 1] if 1 <= x < len(curve) else 0.0


def min_alloc(curve, fair, alpha):
    target = alpha * at(curve, fair)
    return next(x for x in range(fair + 1) if curve[x] >= target)


def algorithm_1(curves, mins, fair):
    x = list(fair)
    n = len(x)
    while True:
        givers = [j for j in range(n) if x[j] > mins[j]]
        if not givers:
            break
        g = min(givers, key=lambda j: (increment(curves[j], x[j]), j))
        takers = [j for j in range(n) if j != g]
        if not takers:
            break
        t = min(takers, key=lambda j: (-increment(curves[j], x[j] + 1), j))
        if increment(curves[g], x[g]) >= increment(curves[t], x[t] + 1):
            break
        x[g] -= 1
        x[t] += 1
    return x


def allocate(name, weights, curves, slots, alpha, capacity=16, note=None):
    fair = fair_shares(weights, [len(c) - 1 for c in curves], slots)
    mins = [min_alloc(c, f, alpha) for c, f in zip(curves, fair)]
    paf = algorithm_1(curves, mins, fair)
    fair_p = [at(c, f) for c, f in zip(curves, fair)]
    paf_p = [at(c, x) for c, x in zip(curves, paf)]
    total_fair = total_paf = 0.0
    largest_loss = 0.0
    for a, b in zip(fair_p, paf_p):
        total_fair += a
        total_paf += b
        if a > 0:
            largest_loss = max(largest_loss, 1.0 - b / a)
    case = {
        "name": name, "op": "allocate", "capacity": capacity, "weights": weights,
        "curves": curves, "slots": slots, "alpha": alpha,
        "expect": {
            "fair": fair, "min": mins, "paf": paf, "fair_progress": fair_p,
            "paf_progress": paf_p, "slots": sum(fair),
            "moved": sum(max(0, f - x) for f, x in zip(fair, paf)),
            "total_fair_progress": total_fair, "total_paf_progress": total_paf,
            "largest_loss": largest_loss,
        },
    }
    if note:
        case["note"] = note
    return case


def failing(name, status, **fields):
    case = {"name": name, "status": status}
    case.update(fields)
    return case


def saturating(demand, knee):
    """min(x, knee) / knee: linear up to the knee, flat after (concave)."""
    return [min(x, knee) / knee for x in range(demand + 1)]


def prefix(increments):
    p = [0.0]
    for d in increments:
        p.append(p[-1] + d)
    return p


def enforce(targets, running, slots):
    running = list(running)
    out = []
    while len(out) < slots:
        below = [j for j in range(len(targets)) if running[j] < targets[j]]
        if not below:
            break
        j = min(below, key=lambda j: (-(targets[j] - running[j]), j))
        running[j] += 1
        out.append(j)
    return out


def ernest_curve(a, points):
    out, best = [], 0.0
    for x in range(points):
        if x == 0:
            p = 0.0
        else:
            t = 0.0
            for f, c in zip([1.0, float(x), 1.0 / x, math.log(x)], a):
                t += f * c
            p = 1.0 / t
        best = max(best, p)
        out.append(best)
    return out


def makespan(tasks, warmup, slots):
    """The job alone on `slots` slots: tasks in order, each on the slot that frees first, a
    slot's first task cold, its later ones warm (task / warmup); at equal free times the warm
    slot first (the heap orders (free time, cold) and False < True)."""
    free = [(0.0, True)] * min(len(tasks), slots)
    heapq.heapify(free)
    done = 0.0
    for task in tasks:
        at, cold = heapq.heappop(free)
        finish = at + (task if cold else task / warmup)
        heapq.heappush(free, (finish, False))
        done = max(done, finish)
    return done


def curve_from_tasks(name, tasks, warmup, note=None):
    times = [makespan(tasks, warmup, x) for x in range(1, len(tasks) + 1)]
    shortest = min(times)
    points, best = [0.0], 0.0
    for t in times:
        best = max(best, shortest / t)
        points.append(best)
    case = {"name": name, "op": "curve_from_tasks", "durations": tasks, "warmup": warmup,
            "expect": {"points": points, "shortest": shortest}}
    if note:
        case["note"] = note
    return case


concave_a = prefix([0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625])
linear_b = prefix([0.125] * 8)
cases = [
    allocate("fig6_two_jobs", [1, 1], [prefix([0.25, 0.25, 0.125, 0.125, 0.0625, 0.0625, 0.03125, 0.03125, 0.015625, 0.015625, 0.0078125, 0.0078125]),
                                      prefix([0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.09375, 0.09375, 0.0625, 0.0625, 0.03125, 0.03125])],
             12, 0.8, note="§III-B, Fig. 6: two jobs start at 6 slots each; slots move from the flatter curve"),
    allocate("testbed_12_3_1", [12, 3, 1], [saturating(128, 32), saturating(128, 128), saturating(128, 96)], 128, 0.9,
             note="§V-A: fair shares 96/24/8; the saturating job gives slots"),
    allocate("alpha_one_keeps_fair_progress", [12, 3, 1], [saturating(128, 32), saturating(128, 128), saturating(128, 96)], 128, 1.0),
    allocate("alpha_zero", [1, 1, 1], [concave_a, linear_b, concave_a], 12, 0.0),
    allocate("ties_lower_index_first", [1, 1, 1, 1], [linear_b, concave_a, linear_b, concave_a], 14, 0.5,
             note="equal increments everywhere between jobs 0 and 2, and 1 and 3"),
    allocate("non_concave", [1, 2, 1], [prefix([0.0625, 0.0625, 0.5, 0.125, 0.125, 0.0]), prefix([0.25, 0.125, 0.125, 0.125]), prefix([0.125, 0.125, 0.5, 0.0625, 0.25])], 9, 0.25,
             note="S-shaped curves: Algorithm 1 is a heuristic here; literal and fast still agree"),
    allocate("demands_below_slots", [1, 5], [concave_a, linear_b], 100, 0.9),
    allocate("remainder_rounding", [1, 1, 1], [linear_b, linear_b, linear_b], 10, 1.0, note="10 slots over 3 equal jobs: 4, 3, 3"),
    allocate("no_jobs", [], [], 5, 0.9),
    allocate("demand_zero", [1, 1], [[0.0], linear_b], 4, 0.9),
    allocate("capacity_exact", [1, 1], [linear_b, concave_a], 6, 0.9, capacity=2),
    failing("capacity_full", "capacity_full", op="allocate", capacity=1, weights=[1, 1], curves=[linear_b, concave_a], slots=6, alpha=0.9),
    failing("alpha_above_one", "out_of_range", op="allocate", capacity=4, weights=[1], curves=[linear_b], slots=6, alpha=1.5),
    failing("alpha_negative", "out_of_range", op="allocate", capacity=4, weights=[1], curves=[linear_b], slots=6, alpha=-0.25),
    failing("alpha_nan", "not_finite", op="allocate", capacity=4, weights=[1], curves=[linear_b], slots=6, alpha="nan"),
    failing("zero_slots", "not_positive", op="allocate", capacity=4, weights=[1], curves=[linear_b], slots=0, alpha=0.9),
    failing("zero_weight", "not_positive", op="allocate", capacity=4, weights=[1, 0], curves=[linear_b, linear_b], slots=6, alpha=0.9),
    failing("empty_curve", "empty", op="allocate", capacity=4, weights=[1, 1], curves=[linear_b, []], slots=6, alpha=0.9),
    failing("decreasing_curve", "not_monotone", op="allocate", capacity=4, weights=[1], curves=[[0.0, 0.5, 0.25]], slots=6, alpha=0.9),
    failing("nan_point", "not_finite", op="allocate", capacity=4, weights=[1], curves=[[0.0, "nan"]], slots=6, alpha=0.9),
    failing("infinite_point", "not_finite", op="allocate", capacity=4, weights=[1], curves=[[0.0, "inf"]], slots=6, alpha=0.9),
    failing("negative_point", "negative", op="allocate", capacity=4, weights=[1], curves=[[0.0, -0.5]], slots=6, alpha=0.9),
    failing("progress_at_zero", "out_of_range", op="allocate", capacity=4, weights=[1], curves=[[0.25, 0.5]], slots=6, alpha=0.9),
    failing("workspace_capacity_zero", "not_positive", op="allocate", capacity=0, weights=[], curves=[], slots=6, alpha=0.9),
    {"name": "enforce_largest_deficit_first", "op": "enforce", "capacity": 4, "targets": [5, 3, 4], "running": [1, 3, 1], "slots": 8,
     "expect_jobs": enforce([5, 3, 4], [1, 3, 1], 8)},
    {"name": "enforce_nobody_below", "op": "enforce", "capacity": 4, "targets": [2, 2], "running": [2, 5], "slots": 3, "expect_jobs": []},
    {"name": "enforce_fewer_slots", "op": "enforce", "capacity": 4, "targets": [9, 9, 9], "running": [0, 1, 0], "slots": 4,
     "expect_jobs": enforce([9, 9, 9], [0, 1, 0], 4)},
    failing("enforce_length_mismatch", "length_mismatch", op="enforce", capacity=4, targets=[1, 2], running=[0], slots=1),
    failing("enforce_capacity_full", "capacity_full", op="enforce", capacity=1, targets=[1, 2], running=[0, 0], slots=1),
    {"name": "ernest_fit_noiseless", "op": "ernest_fit", "slots": [1, 2, 4, 8, 16, 32],
     "runtimes": [sum(f * c for f, c in zip([1.0, x, 1.0 / x, math.log(x)], [0.25, 0.0, 1.0, 0.0])) for x in [1, 2, 4, 8, 16, 32]],
     "expect": [0.25, 0.0, 1.0, 0.0], "tolerance": 1e-9},
    failing("ernest_fit_three_slot_counts", "underdetermined", op="ernest_fit", slots=[2, 4, 8, 8, 4], runtimes=[1.0, 0.75, 0.5, 0.5, 0.75]),
    failing("ernest_fit_too_few", "underdetermined", op="ernest_fit", slots=[1, 2, 4], runtimes=[1.0, 0.75, 0.5]),
    failing("ernest_fit_empty", "empty", op="ernest_fit", slots=[], runtimes=[]),
    failing("ernest_fit_lengths", "length_mismatch", op="ernest_fit", slots=[1, 2], runtimes=[1.0]),
    failing("ernest_fit_zero_slots", "not_positive", op="ernest_fit", slots=[0, 1, 2, 3], runtimes=[1.0, 1.0, 1.0, 1.0]),
    failing("ernest_fit_nan", "not_finite", op="ernest_fit", slots=[1, 2, 3, 4], runtimes=[1.0, "nan", 1.0, 1.0]),
    {"name": "ernest_tabulate", "op": "ernest_tabulate", "coefficients": [0.5, 0.0, 0.5, 0.0], "points": 6,
     "expect": ernest_curve([0.5, 0.0, 0.5, 0.0], 6)},
    {"name": "ernest_tabulate_never_falls", "op": "ernest_tabulate", "coefficients": [0.25, 0.25, 1.0, 0.0], "points": 6,
     "expect": ernest_curve([0.25, 0.25, 1.0, 0.0], 6), "note": "run time 0.25 + 0.25 x + 1/x is shortest at x = 2"},
    failing("ernest_tabulate_negative", "negative", op="ernest_tabulate", coefficients=[0.5, 0.0, -0.5, 0.0], points=4),
    failing("ernest_tabulate_zero_runtime", "not_positive", op="ernest_tabulate", coefficients=[0.0, 0.0, 0.0, 1.0], points=4),
    failing("ernest_tabulate_no_points", "empty", op="ernest_tabulate", coefficients=[0.5, 0.0, 0.5, 0.0], points=0),
    {"name": "curve_check_concave", "op": "curve_check", "points": concave_a, "expect_concave_from": 0},
    {"name": "curve_check_s_shaped", "op": "curve_check", "points": [0.0, 0.125, 0.5, 0.75, 0.875], "expect_concave_from": 1},
    failing("curve_check_decreasing", "not_monotone", op="curve_check", points=[0.0, 0.5, 0.25]),
    {"name": "concave_envelope", "op": "concave_envelope", "points": [0.0, 0.125, 0.25, 0.875, 1.0],
     "expect": [0.0, 0.0 + (0.875 - 0.0) * 1 / 3, 0.0 + (0.875 - 0.0) * 2 / 3, 0.875, 1.0]},
    failing("concave_envelope_empty", "empty", op="concave_envelope", points=[]),
    curve_from_tasks("curve_from_tasks_by_hand", [4.0, 2.0, 6.0, 2.0], 2.0,
                     note="JCT 9, 5, 6, 6 on 1-4 slots (warm tasks take half): fastest on 2 slots, p = 0, 5/9, 1, 1, 1"),
    curve_from_tasks("curve_from_tasks_no_warm_up", [4.0, 2.0, 6.0, 2.0], 1.0, note="JCT 14, 8, 6, 6"),
    curve_from_tasks("curve_from_tasks_warm_slot_at_zero_first", [0.0, 6.0, 3.0], 3.0,
                     note="the first task takes no time: its slot, warm and free at 0, goes before a cold one"),
    curve_from_tasks("curve_from_tasks_one_task", [7.5], 8.0),
    curve_from_tasks("curve_from_tasks_fastest_below_width", [41.5, 17.25, 30.0, 19.0, 17.25, 88.125, 16.5, 21.75, 17.0, 40.5, 18.0, 26.0], 1.25,
                     note="JCT 87.75 on 5 slots, 88.125 (the 88.125 s task cold) from 6 on: p stays 1; not concave (increments 0.302, 0.268, 0.278)"),
    curve_from_tasks("curve_from_tasks_rounding", [20.0, 22.5, 19.0, 25.0, 21.0, 18.5, 24.0, 20.0, 23.0, 19.5, 22.0, 21.0], 1.5,
                     note="warm run times with rounding (JCT 176.99999999999997 on 1 slot), fastest on all 12"),
    failing("curve_from_tasks_empty", "empty", op="curve_from_tasks", durations=[], warmup=2.0),
    failing("curve_from_tasks_nan_duration", "not_finite", op="curve_from_tasks", durations=[1.0, "nan"], warmup=2.0),
    failing("curve_from_tasks_infinite_duration", "not_finite", op="curve_from_tasks", durations=[1.0, "inf"], warmup=2.0),
    failing("curve_from_tasks_negative_duration", "negative", op="curve_from_tasks", durations=[1.0, -0.5], warmup=2.0),
    failing("curve_from_tasks_sum_overflows", "out_of_range", op="curve_from_tasks", durations=[1.7e308, 1.7e308], warmup=2.0),
    failing("curve_from_tasks_warm_up_below_one", "out_of_range", op="curve_from_tasks", durations=[4.0, 2.0], warmup=0.5),
    failing("curve_from_tasks_warm_up_nan", "not_finite", op="curve_from_tasks", durations=[4.0, 2.0], warmup="nan"),
    failing("curve_from_tasks_warm_up_infinite", "not_finite", op="curve_from_tasks", durations=[4.0, 2.0], warmup="inf"),
    failing("curve_from_tasks_out_too_short", "length_mismatch", op="curve_from_tasks", durations=[4.0, 2.0, 6.0, 2.0], warmup=2.0, points=4),
    failing("curve_from_tasks_out_too_long", "length_mismatch", op="curve_from_tasks", durations=[4.0, 2.0], warmup=2.0, points=4),
    failing("curve_from_tasks_no_time", "not_positive", op="curve_from_tasks", durations=[0.0, 0.0, 0.0], warmup=2.0,
            note="every task takes 0: p would be 0 / 0"),
]

with open("tests/vectors/paf.json", "w") as f:
    f.write('{"cases": [\n')
    f.write(",\n".join("  " + json.dumps(c, separators=(", ", ": ")) for c in cases))
    f.write("\n]}\n")
