"""server/trimming.py: when freed memory is given back. Once however many channels close together; at once after a
heavy session or a connection that was sent a scenario; otherwise only when the RSS has grown GROWN_BYTES since
memory was last given back."""

from __future__ import annotations

from webapp.server.trimming import GROWN_BYTES, HEAVY_BYTES, Trimmer


class Process:
    """A process's resident memory, and the tasks started in it (run when ``run`` says)."""

    def __init__(self) -> None:
        self.rss, self.tasks, self.released, self.slept = 100 * GROWN_BYTES, [], 0, []

    def trimmer(self) -> Trimmer:
        return Trimmer(self.tasks.append, self.slept.append, self.release, lambda: self.rss, lambda: 0)

    def release(self) -> None:
        self.released += 1
        self.rss //= 2

    def run(self) -> None:
        tasks = list(self.tasks)
        self.tasks.clear()
        for task in tasks:
            task()


def test_many_channels_closing_together_give_memory_back_once():
    process = Process()
    trim = process.trimmer()
    for _ in range(5):
        trim.channel_closed(sent_scenarios=True)
    assert len(process.tasks) == 1 and trim.releasing
    process.run()
    assert process.released == 1 and not trim.releasing and trim.settled == process.rss and process.slept
    trim.soon()
    process.run()
    assert process.released == 2  # a later close gives back again


def test_only_a_heavy_session_is_worth_giving_memory_back_for():
    process = Process()
    trim = process.trimmer()
    trim.session_closed(HEAVY_BYTES - 1)
    assert not process.tasks
    trim.session_closed(HEAVY_BYTES)
    process.run()
    assert process.released == 1


def test_a_light_channel_gives_memory_back_once_the_rss_has_grown_since():
    process = Process()
    trim = process.trimmer()
    trim.channel_closed(sent_scenarios=False)  # the first look: where the RSS settles
    assert not process.tasks and trim.settled == process.rss
    process.rss += GROWN_BYTES - 1
    trim.channel_closed(sent_scenarios=False)
    assert not process.tasks
    process.rss += 1
    trim.channel_closed(sent_scenarios=False)
    process.run()
    assert process.released == 1
