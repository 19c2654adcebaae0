"""The 24 fictional tasks, each solved by a known tool sequence, and the correct answer of each.

Built once from the world seed (rule AA22); the planner knows a task's sequence length, not
its sequence (rule AA29). Introduced in lesson 1, the single loop.
"""

from dataclasses import dataclass

from sim.model.draws import draw_stream, weighted_pick
from sim.model.errors import InputError, InputTypeError
from sim.model.world import SUBSCRIBERS, WORLD_SEED, charge, consumption_m3

N_TASKS = 24
KIND_WEIGHTS = (0.30, 0.22, 0.20, 0.28)  # charge, consumption, document, record


@dataclass(frozen=True)
class Task:
    """One task: its name (G01..G24), kind, subscriber, request text and the tool sequence that solves it."""

    name: str
    kind: str
    subscriber: str
    request: str
    sequence: tuple[str, ...]


def _make_task(number: int, kind_index: int, subscriber: str) -> Task:
    name = f"G{number:02d}"
    if kind_index == 0:
        return Task(
            name,
            "charge",
            subscriber,
            f"{subscriber} abonesinin bu donem bedeli nedir",
            ("read_meter", "consumption", "tariff"),
        )
    if kind_index == 1:
        return Task(
            name,
            "consumption",
            subscriber,
            f"{subscriber} abonesinin bu donem tuketimi kac metrekup",
            ("read_meter", "consumption"),
        )
    if kind_index == 2:
        return Task(
            name,
            "document",
            subscriber,
            "sayac donusunde endeks farki nasil hesaplanir",
            ("search_docs",),
        )
    return Task(
        name,
        "record",
        subscriber,
        f"{subscriber} abonesinin bedelini hesapla ve kayda yaz",
        ("read_meter", "consumption", "tariff", "write_record"),
    )


def _build_tasks() -> tuple[Task, ...]:
    tasks = []
    for i in range(N_TASKS):
        draw = draw_stream(WORLD_SEED + 9973 * i)
        subscriber = f"A{1 + int(draw() * 60):03d}"
        tasks.append(_make_task(i + 1, weighted_pick(draw(), KIND_WEIGHTS), subscriber))
    return tuple(tasks)


TASKS = _build_tasks()
TASK_NAMES = tuple(task.name for task in TASKS)


def check_task(task: object, name: str = "task") -> Task:
    """Return the Task for a task name G01..G24 (or a Task of the course's task set).

    Raises
    ------
    TypeError
        When `task` is neither a string nor a Task.
    ValueError
        When no task has that name.
    """
    if isinstance(task, Task) and task.name in TASK_NAMES:
        known = TASKS[TASK_NAMES.index(task.name)]  # one comparison, not one per task
        if task is known or task == known:
            return task
    if not isinstance(task, str):
        raise InputTypeError(f"{name} must be a task name G01..G24, got {task!r} ({type(task).__name__})")
    if task not in TASK_NAMES:
        raise InputError(f"{name} must be one of G01..G24, got {task!r}")
    return TASKS[TASK_NAMES.index(task)]


def correct_answer(task: Task | str) -> int | str:
    """Return the answer a task should end with.

    Parameters
    ----------
    task : Task | str
        One of TASKS, or its name G01..G24.

    Returns
    -------
    int | str
        m3 for a consumption task, the document code "SY01" for a document task, and the
        charge for a charge or record task (a record task's answer is the charge it writes).

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for anything but a task of the course or its name.
    """
    task = check_task(task)
    record = SUBSCRIBERS[task.subscriber]
    m3 = consumption_m3(record.previous, record.current)
    if task.kind == "consumption":
        return m3
    if task.kind == "document":
        return "SY01"
    return charge(m3, record.customer_type)
