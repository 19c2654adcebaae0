"""The course's own fan-out tasks (FO1, lesson 8) and the constants of parallel plan execution (PX1).

FO1: F01..F12, TASKS_PER_WIDTH tasks at each width k in WIDTHS, each asking for the total charge of k
different subscribers ("A012, A034 abonelerinin toplam bedeli nedir"). The subscribers come from a
stream of the world seed with its own key ("fan-out/F01"), so the world and the source's 24 tasks stay
as they are. The answer is the sum of the k charges. Each branch is the charge sequence
(read_meter, consumption, tariff) on its own subscriber, in a state of its own: the branches' fields
never collide. Depth: the planner writes every position with selection(1) (AA24), so a branch's depth
does not enter the plan; the planner's one call writes all 3k positions.
PX1: with parallel steps on, one step (one model turn) issues every ready call at once: its tokens are
one executor step after the calls so far plus one observation per call, its simulated seconds those of
its longest call. FB1: the fan-out tasks' bounds are BOUND_FACTOR times the longest right sequential
run's steps, tokens and seconds (like CT11's defaults), the same for both schedules.
FICTIONAL, standard library only."""

from dataclasses import dataclass

from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputError, InputTypeError
from sim.model.world import SUBSCRIBERS, WORLD_SEED, consumption_m3, tariff_amount

WIDTHS = (1, 2, 3, 4)  # FO1: branches per task
TASKS_PER_WIDTH = 3  # FO1: tasks at each width
BRANCH_SEQUENCE = ("read_meter", "consumption", "tariff")  # FO1: each branch is a charge
BRANCH_GOAL = "amount"  # FO1: what each branch must hold
STREAM_PREFIX = "fan-out/"  # FO1: the key of the world-seed stream that draws a task's subscribers
REQUEST = "{} abonelerinin toplam bedeli nedir"  # FO1: the request, {} the subscribers joined by ", "
BOUND_FACTOR = 2  # FB1: bounds are twice the longest right sequential run (like CT11's defaults)


@dataclass(frozen=True)
class FanOutTask:
    """One fan-out task (FO1): its name F01..F12, width, subscribers (one a branch) and request."""

    name: str
    width: int
    subscribers: tuple[str, ...]
    request: str

    @property
    def positions(self) -> tuple[str, ...]:
        """Every branch's right tools, branch after branch: the 3k positions the planner writes."""
        return BRANCH_SEQUENCE * self.width


def _subscribers(name: str, width: int) -> tuple[str, ...]:
    draw, ids, chosen = draw_stream(stream_key(WORLD_SEED, STREAM_PREFIX + name)), sorted(SUBSCRIBERS), []
    while len(chosen) < width:  # k different subscribers
        subscriber = ids[int(draw() * len(ids))]
        if subscriber not in chosen:
            chosen.append(subscriber)
    return tuple(chosen)


def _build() -> tuple[FanOutTask, ...]:
    tasks = []
    for index in range(len(WIDTHS) * TASKS_PER_WIDTH):
        name, width = f"F{index + 1:02d}", WIDTHS[index // TASKS_PER_WIDTH]
        subscribers = _subscribers(name, width)
        tasks.append(FanOutTask(name, width, subscribers, REQUEST.format(", ".join(subscribers))))
    return tuple(tasks)


FAN_OUT_TASKS = _build()
FAN_OUT_NAMES = tuple(task.name for task in FAN_OUT_TASKS)
FAN_OUT_BY_NAME = {task.name: task for task in FAN_OUT_TASKS}


def branch_charge(subscriber: str) -> int:
    """One branch's right amount: the subscriber's charge this period."""
    record = SUBSCRIBERS[subscriber]
    return tariff_amount(consumption_m3(record.previous, record.current), record.customer_type)


FAN_OUT_ANSWERS = {task.name: sum(map(branch_charge, task.subscribers)) for task in FAN_OUT_TASKS}


def check_fan_out_task(task: object, name: str = "task") -> FanOutTask:
    """The FanOutTask for a name F01..F12 (or one of them). Raises InputTypeError, InputError."""
    if isinstance(task, FanOutTask) and FAN_OUT_BY_NAME.get(task.name) == task:
        return task
    if not isinstance(task, str):
        raise InputTypeError(
            f"{name} must be a fan-out task name F01..F12, got {task!r} ({type(task).__name__})"
        )
    if task not in FAN_OUT_BY_NAME:
        raise InputError(f"{name} must be one of F01..F12, got {task!r}")
    return FAN_OUT_BY_NAME[task]
