admin-no-failed = Неудавшихся напоминаний нет.
admin-failed-title = Неудавшиеся напоминания: { $total } (страница { $page })
admin-failed-item = #{ $job} · { $task } · чат { $chat } · попыток: { $attempts }
admin-failed-reason = Причина: { $reason }
admin-failed-next = Дальше: /failed { $page }
admin-button-retry = Повторить
admin-button-cancel = Отменить
admin-retry-usage = Напишите /retry <номер задания> или /retry all.
admin-retried = { $count ->
    [one] { $count } напоминание снова в очереди.
    [few] { $count } напоминания снова в очереди.
   *[other] { $count } напоминаний снова в очереди.
}
admin-not-failed = Задание { $job } не является неудавшимся напоминанием.
admin-stats-title = Очередь
admin-stats-oldest = Самое старое задание к выполнению: #{ $job }, ждёт { $secs } с
admin-stats-hour = За час: отправлено { $sent }, не удалось { $failed }, повторов { $retried }, ответов 429: { $limited }
admin-stats-lateness = Опоздание: p50 { $p50 }, p99 { $p99 }
admin-toast-retried = Снова в очереди.
admin-toast-cancelled = Отменено.
admin-toast-not-failed = Это напоминание уже не числится неудавшимся.
