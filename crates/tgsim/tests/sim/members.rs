//! Group roles and getChatMember as a bot sees them: owners and administrators told apart from
//! members through a real teloxide `Bot`, Telegram's errors, no flood control but faults, and the
//! members route of the control API.

use reqwest::Method;
use serde_json::json;
use teloxide::prelude::*;
use teloxide::types::{ChatMemberKind, UserId};
use teloxide::{ApiError, RequestError};
use tgsim::{
    BotMembership, FaultAction, FaultRule, LimitsConfig, MemberStatus, NewGroup, SimConfig,
    SimHandle, UserState, descriptions,
};

use crate::support::{Raw, bot, call, call_form, control, get, start_unlimited, start_with, user};

/// The user's status in the chat as teloxide parses it.
async fn kind(bot: &Bot, chat_id: i64, user_id: i64) -> Result<ChatMemberKind, RequestError> {
    let id = UserId(u64::try_from(user_id).expect("user ids are positive"));
    bot.get_chat_member(ChatId(chat_id), id)
        .await
        .map(|m| m.kind)
}

/// `PUT /__sim/chats/{chat}/members/{user}` with this status.
async fn set_status(sim: &SimHandle, chat: i64, user: i64, status: &str) -> Raw {
    let path = format!("chats/{chat}/members/{user}");
    control(sim, Method::PUT, &path, Some(json!({"status": status}))).await
}

/// A group owned by `owner`.
fn group_of(sim: &SimHandle, owner: i64, new: NewGroup) -> i64 {
    sim.create_group(new.creator(owner))
        .expect("group is created")
        .chat
        .id
}

#[tokio::test]
async fn the_bot_tells_owners_and_admins_from_members() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let [ann, bob, cat, dan, eve, fay] =
        ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"].map(|name| user(&sim, name));
    let group = group_of(&sim, ann, NewGroup::new("Family"));
    sim.set_member_status(group, bob, MemberStatus::Administrator)
        .unwrap();
    sim.user_says_in(group, cat, "hello all", None).unwrap();
    sim.set_member_status(group, dan, MemberStatus::Left)
        .unwrap();
    sim.set_member_status(group, eve, MemberStatus::Kicked)
        .unwrap();

    let owner = kind(&bot, group, ann).await.unwrap();
    assert!(owner.is_owner() && owner.is_privileged(), "{owner:?}");
    let admin = kind(&bot, group, bob).await.unwrap();
    assert!(
        admin.is_administrator() && admin.is_privileged(),
        "{admin:?}"
    );
    let ChatMemberKind::Administrator(rights) = admin else {
        unreachable!("checked above")
    };
    assert!(rights.can_restrict_members && rights.can_pin_messages && !rights.can_promote_members);
    let member = kind(&bot, group, cat).await.unwrap();
    assert!(member.is_member() && !member.is_privileged(), "{member:?}");
    assert!(kind(&bot, group, dan).await.unwrap().is_left());
    assert!(kind(&bot, group, eve).await.unwrap().is_banned());
    assert!(
        kind(&bot, group, fay).await.unwrap().is_left(),
        "a known user who never joined has left"
    );
    assert!(
        kind(&bot, group, sim.bot_id()).await.unwrap().is_member(),
        "the bot itself is a member"
    );
}

#[tokio::test]
async fn answers_have_the_spec_shapes() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let bob = user(&sim, "Bob");
    let eve = user(&sim, "Eve");
    let group = group_of(&sim, ann, NewGroup::new("Club").supergroup());
    sim.set_member_status(group, bob, MemberStatus::Administrator)
        .unwrap();
    sim.set_member_status(group, eve, MemberStatus::Kicked)
        .unwrap();
    let user_json =
        |id: i64, name: &str| format!(r#"{{"id":{id},"is_bot":false,"first_name":"{name}"}}"#);
    let answer = |result: String| format!(r#"{{"ok":true,"result":{result}}}"#);
    let cases = [
        (
            ann,
            format!(
                r#"{{"status":"creator","user":{},"is_anonymous":false}}"#,
                user_json(ann, "Ann")
            ),
        ),
        (
            bob,
            format!(
                r#"{{"status":"administrator","user":{},"can_be_edited":false,"is_anonymous":false,"can_manage_chat":true,"can_delete_messages":true,"can_manage_video_chats":true,"can_restrict_members":true,"can_promote_members":false,"can_change_info":true,"can_invite_users":true,"can_post_stories":false,"can_edit_stories":false,"can_delete_stories":false,"can_pin_messages":true}}"#,
                user_json(bob, "Bob")
            ),
        ),
        (
            eve,
            format!(
                r#"{{"status":"kicked","user":{},"until_date":0}}"#,
                user_json(eve, "Eve")
            ),
        ),
    ];
    for (user_id, result) in cases {
        let raw = call(
            &sim,
            "getChatMember",
            json!({"chat_id": group, "user_id": user_id}),
        )
        .await;
        assert_eq!((raw.status, raw.text), (200, answer(result)));
    }
}

#[tokio::test]
async fn unknown_chats_and_users_are_telegrams_errors() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let ann = user(&sim, "Ann");
    let group = group_of(&sim, ann, NewGroup::new("Family"));

    assert!(matches!(
        kind(&bot, -4242, ann).await,
        Err(RequestError::Api(ApiError::ChatNotFound))
    ));
    assert!(matches!(
        kind(&bot, group, 999_999).await,
        Err(RequestError::Api(ApiError::UserNotFound))
    ));
    let unknown = call(
        &sim,
        "getChatMember",
        json!({"chat_id": group, "user_id": 999_999}),
    )
    .await;
    assert_eq!(
        (unknown.status, unknown.description()),
        (400, descriptions::USER_NOT_FOUND)
    );
    for body in [
        json!({"chat_id": group}),
        json!({"chat_id": group, "user_id": "ann"}),
    ] {
        assert_eq!(
            call(&sim, "getChatMember", body).await.description(),
            descriptions::USER_ID_INVALID
        );
    }
    assert_eq!(
        call(&sim, "getChatMember", json!({"user_id": ann}))
            .await
            .description(),
        descriptions::CHAT_ID_EMPTY
    );
}

#[tokio::test]
async fn where_the_bot_cannot_act_it_only_learns_its_own_status() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let ann = user(&sim, "Ann");
    let group = group_of(&sim, ann, NewGroup::new("Family"));
    let supergroup = group_of(&sim, ann, NewGroup::new("Club").supergroup());
    sim.set_membership(group, BotMembership::Kicked, Some(ann))
        .unwrap();
    sim.set_membership(supergroup, BotMembership::Left, None)
        .unwrap();

    let kicked = call(
        &sim,
        "getChatMember",
        json!({"chat_id": group, "user_id": ann}),
    )
    .await;
    assert_eq!(
        (kicked.status, kicked.description()),
        (403, descriptions::KICKED_FROM_GROUP)
    );
    assert!(matches!(
        kind(&bot, supergroup, ann).await,
        Err(RequestError::Api(ApiError::Unknown(d))) if d == descriptions::NOT_MEMBER_OF_SUPERGROUP
    ));
    assert!(kind(&bot, group, sim.bot_id()).await.unwrap().is_banned());
    assert!(
        kind(&bot, supergroup, sim.bot_id())
            .await
            .unwrap()
            .is_left()
    );

    sim.set_membership(supergroup, BotMembership::Member, None)
        .unwrap();
    assert!(kind(&bot, supergroup, ann).await.unwrap().is_owner());
}

#[tokio::test]
async fn an_upgraded_group_keeps_its_roles_under_the_new_id() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let ann = user(&sim, "Ann");
    let bob = user(&sim, "Bob");
    let group = group_of(&sim, ann, NewGroup::new("Family"));
    sim.set_member_status(group, bob, MemberStatus::Administrator)
        .unwrap();
    let new_id = sim.upgrade_group(group, Some(ann)).unwrap();

    assert!(matches!(
        kind(&bot, group, bob).await,
        Err(RequestError::MigrateToChatId(ChatId(id))) if id == new_id
    ));
    assert!(kind(&bot, new_id, ann).await.unwrap().is_owner());
    assert!(kind(&bot, new_id, bob).await.unwrap().is_administrator());
}

#[tokio::test]
async fn a_private_chat_has_its_user_and_the_bot() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let ann = user(&sim, "Ann");
    let bob = user(&sim, "Bob");
    assert!(kind(&bot, ann, ann).await.unwrap().is_member());
    assert!(kind(&bot, ann, sim.bot_id()).await.unwrap().is_member());
    assert!(kind(&bot, ann, bob).await.unwrap().is_left());
    sim.set_user_state(ann, UserState::Blocked).unwrap();
    assert!(
        kind(&bot, ann, sim.bot_id()).await.unwrap().is_banned(),
        "as the my_chat_member update said"
    );
    assert!(kind(&bot, ann, ann).await.unwrap().is_member());
}

#[tokio::test]
async fn writing_makes_a_member_and_keeps_roles() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let ann = user(&sim, "Ann");
    let bob = user(&sim, "Bob");
    let dan = user(&sim, "Dan");
    let group = group_of(&sim, ann, NewGroup::new("Family"));
    sim.set_member_status(group, bob, MemberStatus::Administrator)
        .unwrap();
    for writer in [ann, bob] {
        sim.user_says_in(group, writer, "hi", None).unwrap();
    }
    assert!(kind(&bot, group, ann).await.unwrap().is_owner());
    assert!(kind(&bot, group, bob).await.unwrap().is_administrator());

    sim.set_member_status(group, dan, MemberStatus::Left)
        .unwrap();
    assert!(
        sim.user_says_in(group, dan, "let me in", None).is_err(),
        "who left cannot write"
    );
    sim.set_member_status(group, dan, MemberStatus::Member)
        .unwrap();
    sim.user_says_in(group, dan, "back", None).unwrap();

    sim.set_member_status(group, bob, MemberStatus::Creator)
        .unwrap();
    assert!(kind(&bot, group, bob).await.unwrap().is_owner());
    assert!(
        kind(&bot, group, ann).await.unwrap().is_administrator(),
        "the old owner becomes an administrator"
    );
    assert!(
        sim.set_member_status(ann, bob, MemberStatus::Member)
            .is_err(),
        "private chats have no roles"
    );
}

#[tokio::test]
async fn any_case_and_encoding_no_flood_control_but_faults() {
    let limits = LimitsConfig::default();
    let sim = start_with(SimConfig::default().with_limits(limits).with_manual_clock()).await;
    let ann = user(&sim, "Ann");
    let group = group_of(&sim, ann, NewGroup::new("Family"));
    let query = get(&format!(
        "{}/getchatmember?chat_id={group}&user_id={ann}",
        sim.api_url()
    ))
    .await;
    assert_eq!(query.json["result"]["status"], json!("creator"));
    let form = call_form(
        &sim,
        "GETCHATMEMBER",
        &[
            ("chat_id", &group.to_string()),
            ("user_id", &ann.to_string()),
        ],
    )
    .await;
    assert_eq!(form.json["result"]["status"], json!("creator"));

    for _ in 0..40 {
        let answer = call(
            &sim,
            "getChatMember",
            json!({"chat_id": group.to_string(), "user_id": ann.to_string()}),
        )
        .await;
        assert_eq!(answer.status, 200, "{}", answer.text);
    }
    assert_eq!(sim.counters().too_many_requests.per_chat, 0);

    sim.add_fault(
        FaultRule::new(FaultAction::ServerError { status: 502 })
            .method("GetChatMember")
            .chat(group)
            .times(1),
    );
    let faulted = call(
        &sim,
        "getChatMember",
        json!({"chat_id": group, "user_id": ann}),
    )
    .await;
    assert_eq!(faulted.status, 502);
    assert!(kind(&bot(&sim), group, ann).await.unwrap().is_owner());
    assert_eq!(sim.counters().faults_fired, 1);
}

#[tokio::test]
async fn the_members_route_over_http() {
    let sim = start_unlimited().await;
    let new_user = |name: &str| json!({"first_name": name});
    let ann = control(&sim, Method::POST, "users", Some(new_user("Ann")))
        .await
        .json["user"]["id"]
        .as_i64()
        .unwrap();
    let bob = control(&sim, Method::POST, "users", Some(new_user("Bob")))
        .await
        .json["user"]["id"]
        .as_i64()
        .unwrap();
    let group = control(
        &sim,
        Method::POST,
        "groups",
        Some(json!({"title": "Team", "creator": ann})),
    )
    .await;
    assert_eq!(group.status, 200, "{}", group.text);
    let group = group.json["chat"]["id"].as_i64().unwrap();
    let done = set_status(&sim, group, bob, "administrator").await;
    assert_eq!((done.status, done.json), (200, json!({})));
    let answer = call(
        &sim,
        "getChatMember",
        json!({"chat_id": group, "user_id": bob}),
    )
    .await;
    assert_eq!(answer.json["result"]["status"], json!("administrator"));
    let owner = call(
        &sim,
        "getChatMember",
        json!({"chat_id": group, "user_id": ann}),
    )
    .await;
    assert_eq!(owner.json["result"]["status"], json!("creator"));

    for status in ["creator", "member", "left", "kicked"] {
        assert_eq!(
            set_status(&sim, group, bob, status).await.status,
            200,
            "{status}"
        );
    }
    assert_eq!(set_status(&sim, -4242, bob, "member").await.status, 404);
    let unknown = set_status(&sim, group, 5, "member").await;
    assert_eq!(
        (unknown.status, unknown.json["error"].as_str().unwrap()),
        (404, "no user with id 5")
    );
    assert_eq!(set_status(&sim, ann, bob, "member").await.status, 409);
    assert_eq!(set_status(&sim, group, bob, "owner").await.status, 422);
    let bad_creator = control(
        &sim,
        Method::POST,
        "groups",
        Some(json!({"title": "Nobody's", "creator": 5})),
    )
    .await;
    assert_eq!(bad_creator.status, 404);
}
