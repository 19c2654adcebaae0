"""How a control panel runs its redraws: at once, or in a worker thread where the latest request wins.

Inside a Jupyter kernel, ipywidgets' callbacks run on the kernel's main thread, one message at a
time: a redraw that takes a second there holds back every click behind it, and five quick
presses of "new seed" queue five full redraws. A `PanelWorker` in the background instead
computes in a thread of its own and hands each result back to the main thread (the kernel's
event loop), where the widgets are set. Requests that arrive while it computes replace each
other: when it is done it takes only the latest, and a result a newer request overtook is
dropped, never shown. `wait()` returns once the latest result is on screen: called on the kernel's
main thread (a cell), which the delivery needs and the cell holds, it delivers the result itself.
Plain Python (a test, a script) computes at once. Introduced with the panels of every lesson
(lesson 2 onwards).
"""

import threading
import traceback
from collections.abc import Callable

from sim.model.errors import InputError


def main_thread_poster() -> Callable | None:
    """`add_callback` of the running Jupyter kernel's event loop (it runs a function on the
    kernel's main thread, and may be called from any thread), or None outside a kernel."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    loop = getattr(getattr(get_ipython(), "kernel", None), "io_loop", None)
    return getattr(loop, "add_callback", None)


class PanelWorker:
    """Runs a panel's redraws.

    Parameters
    ----------
    compute : Callable[[settings], object]
        The work of one redraw (any thread); raises sim.InputError for settings it refuses.
    show : Callable[[settings, result], None]
        Puts a result on screen (the kernel's main thread).
    failed : Callable[[settings, Exception], None]
        Says why a request was refused (an InputError) or what went wrong (any other error,
        with its traceback in the error's `panel_traceback`) (the kernel's main thread).
    background : bool | None
        True: compute in a worker thread; False: at once, in the caller's thread; None: in the
        background inside a running Jupyter kernel, else at once.

    Attributes: `background`, `dropped` (results a newer request overtook, never shown).
    """

    def __init__(self, compute: Callable, show: Callable, failed: Callable, background: bool | None = None):
        self._compute, self._show, self._failed = compute, show, failed
        post = main_thread_poster()
        self.background = post is not None if background is None else bool(background)
        self._post = post or (lambda function, *args: function(*args))  # no kernel: show from the worker
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._wanted = None
        self._pending = []  # results computed and posted to the main thread, not yet delivered
        self._delivered = threading.Condition(self._lock)
        self._generation = 0
        self._running = False
        self.dropped = 0

    def request(self, settings) -> None:
        """Redraw for `settings`: at once, or (in the background) as soon as the worker is free,
        replacing any request still waiting."""
        if not self.background:
            try:
                result = self._compute(settings)
            except InputError as error:
                self._failed(settings, error)
                return
            self._show(settings, result)
            return
        with self._lock:
            self._wanted, self._generation = settings, self._generation + 1
            if self._running:
                return
            self._running = True
            self._idle.clear()
        threading.Thread(target=self._run, name="panel redraw", daemon=True).start()

    def wait(self, timeout: float | None = 60) -> None:
        """Return once no request is waiting or being computed and the last result is shown (or
        refused); TimeoutError after `timeout` seconds. On the main thread it shows a result
        still on its way there itself (a cell that waits holds the thread the result needs)."""
        if not self._idle.wait(timeout):
            raise TimeoutError(f"the panel was still computing after {timeout} s")
        if threading.current_thread() is threading.main_thread():
            self._deliver_pending()
            return
        with self._delivered:
            if not self._delivered.wait_for(lambda: not self._pending, timeout):
                raise TimeoutError(f"the panel's last result was not shown after {timeout} s")

    def _run(self) -> None:
        while True:
            with self._lock:
                settings, generation, self._wanted = self._wanted, self._generation, None
                if settings is None:
                    self._running = False
                    self._idle.set()
                    return
            try:
                result, error = self._compute(settings), None
            except Exception as caught:  # shown in the panel: a worker thread has no cell to raise in
                result, error = None, caught
                error.panel_traceback = traceback.format_exc()
            with self._lock:
                overtaken = self._wanted is not None
            if overtaken:
                self.dropped += 1
                continue
            with self._lock:
                self._pending.append((settings, generation, result, error))
            self._post(self._deliver_pending)

    def _deliver_pending(self) -> None:
        """Show (or refuse) the results posted so far, on the main thread; a later call finds none."""
        while True:
            with self._lock:
                if not self._pending:
                    self._delivered.notify_all()
                    return
                item = self._pending[0]
            try:
                self._deliver(*item)
            finally:  # taken off only once shown: a waiter on another thread returns after that
                with self._lock:
                    self._pending.remove(item)

    def _deliver(self, settings, generation: int, result, error) -> None:
        if generation != self._generation:  # a newer request came in while this one travelled
            self.dropped += 1
        elif error is None:
            self._show(settings, result)
        else:
            self._failed(settings, error)
