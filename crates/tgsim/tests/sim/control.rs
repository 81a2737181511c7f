//! The control API over HTTP, as another program (the sandbox, a script) uses it.

use reqwest::Method;
use serde_json::json;

use crate::support::{call, control, start};

#[tokio::test]
async fn a_script_can_drive_a_whole_conversation() {
    let sim = start().await;
    let user = control(
        &sim,
        Method::POST,
        "users",
        Some(json!({"first_name": "Ann", "language_code": "uz", "state": "never_started"})),
    )
    .await;
    assert_eq!(user.status, 200, "{}", user.text);
    let ann = user.json["user"]["id"].as_i64().unwrap();
    assert_eq!(
        call(&sim, "sendMessage", json!({"chat_id": ann, "text": "hi"}))
            .await
            .status,
        403
    );

    let said = control(
        &sim,
        Method::POST,
        &format!("users/{ann}/messages"),
        Some(json!({"text": "/start"})),
    )
    .await;
    assert_eq!(said.json["text"], json!("/start"));
    let updates = call(&sim, "getUpdates", json!({})).await;
    assert_eq!(
        updates.json["result"][0]["message"]["from"]["language_code"],
        json!("uz")
    );

    let keyboard = json!({"inline_keyboard": [[{"text": "Done", "callback_data": "dn:1"}]]});
    let sent = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "Reminder", "reply_markup": keyboard}),
    )
    .await;
    let message_id = sent.json["result"]["message_id"].as_i64().unwrap();

    let transcript = control(&sim, Method::GET, &format!("chats/{ann}/transcript"), None).await;
    assert_eq!(transcript.json.as_array().unwrap().len(), 2);
    assert_eq!(transcript.json[1]["from_bot"], json!(true));
    assert_eq!(
        transcript.json[1]["buttons"][0][0]["callback_data"],
        json!("dn:1")
    );

    let tap = control(
        &sim,
        Method::POST,
        "taps",
        Some(json!({"chat_id": ann, "message_id": message_id, "button": "Done"})),
    )
    .await;
    let query = tap.json["callback_query_id"].as_str().unwrap().to_owned();
    let unanswered = control(&sim, Method::GET, &format!("callbacks/{query}"), None).await;
    assert_eq!(unanswered.json["answer"], json!(null));
    call(
        &sim,
        "answerCallbackQuery",
        json!({"callback_query_id": query, "text": "Done!"}),
    )
    .await;
    let answered = control(&sim, Method::GET, &format!("callbacks/{query}"), None).await;
    assert_eq!(answered.json["answer"]["text"], json!("Done!"));

    let calls = control(&sim, Method::GET, "calls", None).await;
    let methods: Vec<&str> = calls
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        vec![
            "sendMessage",
            "getUpdates",
            "sendMessage",
            "answerCallbackQuery"
        ]
    );
    assert!(calls.json[0]["at_ms"].as_i64().unwrap() > 0);
    assert!(
        !calls.text.contains(sim.token()),
        "the call log never shows the token"
    );
    let since = control(&sim, Method::GET, "calls?since=4", None).await;
    assert_eq!(since.json.as_array().unwrap().len(), 1);

    let counters = control(&sim, Method::GET, "counters", None).await;
    assert_eq!(counters.json["requests"], json!(4));
    assert_eq!(counters.json["messages_sent"], json!(1));
    assert_eq!(counters.json["errors_by_code"]["403"], json!(1));
}

#[tokio::test]
async fn limits_faults_clock_and_states_over_http() {
    let sim = start().await;
    let ann = control(
        &sim,
        Method::POST,
        "users",
        Some(json!({"first_name": "Ann"})),
    )
    .await
    .json["user"]["id"]
        .as_i64()
        .unwrap();
    let group = control(
        &sim,
        Method::POST,
        "groups",
        Some(json!({"title": "Team", "supergroup": true})),
    )
    .await;
    let group_id = group.json["chat"]["id"].as_i64().unwrap();
    assert_eq!(group.json["chat"]["type"], json!("supergroup"));

    let limits = control(&sim, Method::GET, "limits", None).await;
    assert_eq!(
        limits.json["per_chat"],
        json!({"count": 1, "period_ms": 1000, "burst": 3})
    );
    let set = control(&sim, Method::PUT, "limits", Some(json!({"enabled": false}))).await;
    assert_eq!(set.status, 200);
    for _ in 0..10 {
        assert_eq!(
            call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x"}))
                .await
                .status,
            200
        );
    }

    let fault = control(&sim, Method::POST, "faults", Some(json!({"method": "sendmessage", "count": 1, "action": {"kind": "too_many_requests", "retry_after": 7}}))).await;
    assert_eq!(fault.status, 200, "{}", fault.text);
    let refused = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x"})).await;
    assert_eq!(refused.json["parameters"]["retry_after"], json!(7));
    let id = control(
        &sim,
        Method::POST,
        "faults",
        Some(json!({"action": {"kind": "drop"}})),
    )
    .await
    .json["id"]
        .as_u64()
        .unwrap();
    assert_eq!(
        control(&sim, Method::GET, "faults", None)
            .await
            .json
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        control(&sim, Method::DELETE, &format!("faults/{id}"), None)
            .await
            .status,
        200
    );
    assert_eq!(
        control(&sim, Method::DELETE, &format!("faults/{id}"), None)
            .await
            .status,
        404
    );

    let before = control(&sim, Method::GET, "clock", None).await.json["unix_ms"]
        .as_i64()
        .unwrap();
    control(&sim, Method::PUT, "clock", Some(json!({"mode": "manual"}))).await;
    let after = control(
        &sim,
        Method::POST,
        "clock/advance",
        Some(json!({"ms": 3_600_000})),
    )
    .await;
    assert!(after.json["unix_ms"].as_i64().unwrap() - before >= 3_600_000);
    assert_eq!(after.json["mode"], json!("manual"));

    control(
        &sim,
        Method::PUT,
        &format!("users/{ann}/state"),
        Some(json!({"state": "deactivated"})),
    )
    .await;
    assert_eq!(
        call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x"}))
            .await
            .description(),
        "Forbidden: user is deactivated"
    );
    control(
        &sim,
        Method::PUT,
        &format!("chats/{group_id}/membership"),
        Some(json!({"membership": "left"})),
    )
    .await;
    assert_eq!(
        call(
            &sim,
            "sendMessage",
            json!({"chat_id": group_id, "text": "x"})
        )
        .await
        .status,
        403
    );

    let missing = control(
        &sim,
        Method::PUT,
        "users/5/state",
        Some(json!({"state": "blocked"})),
    )
    .await;
    assert_eq!(
        (missing.status, missing.json["error"].as_str().unwrap()),
        (404, "no user with id 5")
    );
    assert_eq!(
        control(&sim, Method::GET, "nowhere", None).await.status,
        404
    );
}

#[tokio::test]
async fn a_transcript_request_can_wait_for_the_bot() {
    let sim = start().await;
    let ann = crate::support::user(&sim, "Ann");
    let path = format!("chats/{ann}/transcript?min_messages=1&timeout_ms=3000");
    let url = format!("{}/{path}", sim.control_url());
    let waiting = tokio::spawn(async move { crate::support::get(&url).await });
    tokio::task::yield_now().await;
    call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "late reply"}),
    )
    .await;
    let transcript = waiting.await.unwrap();
    assert_eq!(transcript.json[0]["text"], json!("late reply"));
}

#[tokio::test]
async fn the_bots_stars_over_http() {
    let sim = start().await;
    let ann = control(
        &sim,
        Method::POST,
        "users",
        Some(json!({"first_name": "Ann"})),
    )
    .await
    .json["user"]["id"]
        .as_i64()
        .unwrap();
    let state = control(&sim, Method::GET, "paid_broadcast", None).await;
    assert_eq!(
        state.json,
        json!({"balance_tenths": 0, "eligible": true, "charged_tenths": 0, "sent": 0, "refused": 0})
    );
    let set = control(
        &sim,
        Method::PUT,
        "paid_broadcast",
        Some(json!({"balance_tenths": 25, "eligible": false})),
    )
    .await;
    assert_eq!(set.json["balance_tenths"], json!(25));
    assert_eq!(set.json["eligible"], json!(false));
    let refused = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "x", "allow_paid_broadcast": true}),
    )
    .await;
    assert_eq!(refused.status, 400);
    let state = control(&sim, Method::GET, "paid_broadcast", None).await;
    assert_eq!(state.json["refused"], json!(1));
}
