"""The 24 fictional tasks, each solved by a known tool sequence, and their correct answers (lesson 1).
Built once from the world seed (AA22); the planner knows a sequence's length, not its tools (AA29)."""

from dataclasses import dataclass
from types import MappingProxyType

from sim.model.draws import draw_stream, weighted_pick
from sim.model.errors import InputError, InputTypeError
from sim.model.world import SUBSCRIBERS, WORLD_SEED, consumption_m3, tariff_amount

N_TASKS = 24
KIND_WEIGHTS = (0.30, 0.22, 0.20, 0.28)  # charge, consumption, document, record
# the field a task's request asks for, by kind: a plan's goal (CT3) and a policy's (lesson 6)
GOALS = MappingProxyType({"charge": "amount", "consumption": "m3", "document": "code", "record": "written"})


@dataclass(frozen=True)
class Task:
    """One task: its name (G01..G24), kind, subscriber, request and the tool sequence that solves it."""

    name: str
    kind: str
    subscriber: str
    request: str
    sequence: tuple[str, ...]


# each kind, in KIND_WEIGHTS' order: its request ({} the subscriber) and the tool sequence that solves it
KINDS = (
    ("charge", "{} abonesinin bu donem bedeli nedir", ("read_meter", "consumption", "tariff")),
    ("consumption", "{} abonesinin bu donem tuketimi kac metrekup", ("read_meter", "consumption")),
    ("document", "sayac donusunde endeks farki nasil hesaplanir", ("search_docs",)),
    (
        "record",
        "{} abonesinin bedelini hesapla ve kayda yaz",
        ("read_meter", "consumption", "tariff", "write_record"),
    ),
)


def _build_tasks() -> tuple[Task, ...]:
    tasks = []
    for i in range(N_TASKS):
        draw = draw_stream(WORLD_SEED + 9973 * i)
        subscriber = f"A{1 + int(draw() * 60):03d}"
        kind, request, sequence = KINDS[weighted_pick(draw(), KIND_WEIGHTS)]
        tasks.append(Task(f"G{i + 1:02d}", kind, subscriber, request.format(subscriber), sequence))
    return tuple(tasks)


TASKS = _build_tasks()
TASK_NAMES = tuple(task.name for task in TASKS)
BY_NAME = {task.name: task for task in TASKS}


def check_task(task: object, name: str = "task") -> Task:
    """The Task for a name G01..G24 (or a Task of the course's own). Raises InputTypeError, InputError."""
    if isinstance(task, Task) and BY_NAME.get(task.name) == task:
        return task
    if not isinstance(task, str):
        raise InputTypeError(f"{name} must be a task name G01..G24, got {task!r} ({type(task).__name__})")
    if task not in BY_NAME:
        raise InputError(f"{name} must be one of G01..G24, got {task!r}")
    return BY_NAME[task]


def _answer(task: Task) -> int | str:
    record = SUBSCRIBERS[task.subscriber]
    m3 = consumption_m3(record.previous, record.current)
    if task.kind == "consumption":
        return m3
    if task.kind == "document":
        return "SY01"
    return tariff_amount(m3, record.customer_type)  # a record task's answer is the charge it writes


ANSWERS = {task.name: _answer(task) for task in TASKS}  # the correct answer by task name


def correct_answer(task: Task | str) -> int | str:
    """The answer a task should end with (lesson 1). Raises as `check_task`."""
    return ANSWERS[check_task(task).name]
