admin-no-failed = No failed reminders.
admin-failed-title = Failed reminders: { $total } (page { $page })
admin-failed-item = #{ $job} · { $task } · chat { $chat } · attempts: { $attempts }
admin-failed-reason = Reason: { $reason }
admin-failed-next = More: /failed { $page }
admin-button-retry = Retry
admin-button-cancel = Cancel
admin-retry-usage = Use /retry <job id> or /retry all.
admin-retried = { $count ->
    [one] 1 reminder is back in the queue.
   *[other] { $count } reminders are back in the queue.
}
admin-not-failed = Job { $job } is not a failed reminder.
admin-stats-title = Queue
admin-stats-oldest = Oldest due job: #{ $job }, waiting { $secs } s
admin-stats-hour = Last hour: sent { $sent }, failed { $failed }, retried { $retried }, 429 answers { $limited }
admin-stats-lateness = Lateness: p50 { $p50 }, p99 { $p99 }
admin-toast-retried = Back in the queue.
admin-toast-cancelled = Cancelled.
admin-toast-not-failed = This reminder is no longer failed.
