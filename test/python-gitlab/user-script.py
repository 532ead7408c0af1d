#!/usr/bin/env python3
"""A user's script over python-gitlab 3.12, run against a GitLab REST v4 server.

It walks every domain of the REST v4 reference (runners, boards, commits, issues, groups, projects,
wikis, snippet storage moves, SSH keys, submodules, job artifacts, invitations) as someone scripting
their instance would: through python-gitlab's managers where 3.12 has one, and through its
`http_*` helpers where it has none (snippet storage moves, wiki attachments, metric images).

Each step runs on its own and prints one JSON line:
  {"domain", "step", "ok", "values" (what it read, for the caller to check), "error" (when not ok)}
so that one refusal shows which call failed and why, and the other steps still run.

Usage: user-script.py URL --token TOKEN --admin-token TOKEN [--domain NAME ...]
(or GITLAB_URL, GITLAB_TOKEN, GITLAB_ADMIN_TOKEN). TOKEN is a maintainer's of most groups;
the administrator's serves the administrators-only calls.
"""
import argparse
import base64
import hashlib
import io
import json
import os
import sys
import zipfile

import gitlab

# The project most steps work in, and a project the maintainer owns (board lists may be deleted
# only by owners and administrators).
PROJECT = "gitlab-org/gitlab"
OWN_PROJECT = "maintainer/dotfiles"
DEMO_BRANCH = "python-gitlab-demo"
# One pixel, for the metric image upload.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

STEPS = []


def step(domain, name):
    """Registers a step; steps run in the order they are written."""

    def register(function):
        STEPS.append((domain, name, function))
        return function

    return register


def assign(thing, changes):
    """Sets attributes one by one, as a user would before save(); returns them for the report."""
    for name, value in changes.items():
        setattr(thing, name, value)
    return changes


class Session:
    """The clients and what earlier steps made, for the steps that build on them."""

    def __init__(self, url, token, admin_token):
        self.gl = gitlab.Gitlab(url, private_token=token)
        self.admin = gitlab.Gitlab(url, private_token=admin_token)
        self.made = {}

    def project(self, path=PROJECT):
        return self.gl.projects.get(path)


def ids(items):
    return [item.id for item in items]


# --- Runners ---------------------------------------------------------------------------------------


@step("runners", "list owned runners")
def runners_list(s):
    return {"ids": ids(s.gl.runners.list(get_all=True))}


@step("runners", "list online instance runners (admin, all)")
def runners_all(s):
    runners = s.admin.runners.all(type="instance_type", status="online", get_all=True)
    return {"ids": ids(runners), "statuses": sorted({runner.status for runner in runners})}


@step("runners", "read a runner's details")
def runners_get(s):
    runner = s.gl.runners.get(17)
    return {"id": runner.id, "description": runner.description, "tag_list": runner.tag_list, "status": runner.status}


@step("runners", "update description and tags")
def runners_update(s):
    runner = s.gl.runners.get(16)
    sent = assign(runner, {"description": "edited by python-gitlab", "tag_list": ["python", "gitlab"]})
    runner.save()
    return {"id": runner.id, "sent": sent, "description": runner.description, "tag_list": runner.tag_list}


@step("runners", "pause")
def runners_pause(s):
    runner = s.gl.runners.get(16)
    sent = assign(runner, {"active": False})
    runner.save()
    return {"id": runner.id, "sent": sent, "active": runner.active, "status": runner.status}


@step("runners", "list a runner's successful jobs")
def runners_jobs(s):
    jobs = s.gl.runners.get(36).jobs.list(status="success", per_page=20, get_all=False)
    return {"ids": ids(jobs), "statuses": sorted({job.status for job in jobs})}


@step("runners", "enable a runner in a project")
def runners_enable(s):
    project = s.project()
    project.runners.create({"runner_id": 39})
    return {"runner": 39, "ids": ids(project.runners.list(get_all=True))}


@step("runners", "disable it again")
def runners_disable(s):
    project = s.project()
    project.runners.delete(39)
    return {"runner": 39, "ids": ids(project.runners.list(get_all=True))}


@step("runners", "list a group's runners")
def runners_group(s):
    return {"ids": ids(s.gl.groups.get("gitlab-org", lazy=True).runners.list(get_all=True))}


@step("runners", "register with the group's registration token")
def runners_register(s):
    token = s.admin.groups.get("gitlab-org").runners_token
    sent = {"description": "registered by python-gitlab", "tag_list": ["python"]}
    runner = s.gl.runners.create({"token": token, **sent})
    s.made["runner"] = {"id": runner.id, "token": runner.token}
    # Read back before it goes: the registration answer holds only the id and the token.
    registered = s.gl.runners.get(runner.id)
    return {
        "id": runner.id,
        "sent": sent,
        "token_prefix": runner.token[:5],
        "description": registered.description,
        "tag_list": registered.tag_list,
    }


@step("runners", "verify its authentication token")
def runners_verify(s):
    s.gl.runners.verify(s.made["runner"]["token"])
    return {"id": s.made["runner"]["id"]}


@step("runners", "delete it")
def runners_delete(s):
    s.gl.runners.delete(s.made["runner"]["id"])
    return {"id": s.made["runner"]["id"]}


# --- Boards ----------------------------------------------------------------------------------------


@step("boards", "list a project's boards and their lists")
def boards_list(s):
    boards = s.project(OWN_PROJECT).boards.list(get_all=True)
    # A board's `lists` field is hidden behind its list manager of the same name in python-gitlab.
    return {"boards": [{"id": board.id, "name": board.name, "lists": ids(board.lists.list(get_all=True))} for board in boards]}


@step("boards", "create a board")
def boards_create(s):
    sent = {"name": "Python board"}
    board = s.project(OWN_PROJECT).boards.create(sent)
    s.made["board"] = board.id
    return {"id": board.id, "sent": sent, "name": board.name, "project": board.project["path_with_namespace"]}


@step("boards", "rename it")
def boards_update(s):
    board = s.project(OWN_PROJECT).boards.get(s.made["board"])
    sent = assign(board, {"name": "Python board, renamed", "hide_closed_list": True})
    board.save()
    return {"id": board.id, "sent": sent, "name": board.name, "hide_closed_list": board.hide_closed_list}


@step("boards", "add two label lists")
def boards_lists_create(s):
    project = s.project(OWN_PROJECT)
    labels = {label.name: label.id for label in project.labels.list(get_all=True)}
    board = project.boards.get(s.made["board"])
    sent = ["bug", "feature"]
    made = [board.lists.create({"label_id": labels[name]}) for name in sent]
    s.made["board_lists"] = [lst.id for lst in made]
    return {"sent": sent, "lists": [{"id": lst.id, "label": lst.label["name"]} for lst in made]}


@step("boards", "move the second list first")
def boards_lists_move(s):
    board = s.project(OWN_PROJECT).boards.get(s.made["board"])
    moved = board.lists.get(s.made["board_lists"][1])
    moved.position = 0
    moved.save()
    return {"order": [lst.id for lst in sorted(board.lists.list(get_all=True), key=lambda lst: lst.position)]}


@step("boards", "delete a list")
def boards_lists_delete(s):
    board = s.project(OWN_PROJECT).boards.get(s.made["board"])
    board.lists.delete(s.made["board_lists"][0])
    return {"lists": [lst.id for lst in board.lists.list(get_all=True)]}


@step("boards", "delete the board")
def boards_delete(s):
    s.project(OWN_PROJECT).boards.delete(s.made["board"])
    return {"id": s.made["board"]}


@step("boards", "list a group's boards")
def boards_group(s):
    boards = s.gl.groups.get("gitlab-org", lazy=True).boards.list(get_all=True)
    return {"ids": ids(boards), "names": [board.name for board in boards]}


# --- Commits ---------------------------------------------------------------------------------------


@step("commits", "list the main line")
def commits_list(s):
    commits = s.project().commits.list(ref_name="main", per_page=20, get_all=False)
    return {"ids": ids(commits)}


@step("commits", "read a commit with its diff and refs")
def commits_get(s):
    project = s.project()
    head = project.commits.list(ref_name="main", per_page=1, get_all=False)[0]
    commit = project.commits.get(head.id)
    return {
        "id": commit.id,
        "title": commit.title,
        "parent_ids": commit.parent_ids,
        "stats": commit.stats,
        "diff_paths": [entry["new_path"] for entry in commit.diff(get_all=True)],
        "refs": sorted(f"{ref['type']}:{ref['name']}" for ref in commit.refs(get_all=True)),
    }


@step("commits", "find a signed commit")
def commits_signature(s):
    project = s.project()
    for commit in project.commits.list(ref_name="main", per_page=20, get_all=False):
        try:
            signature = commit.signature()
        except gitlab.exceptions.GitlabGetError as error:
            if error.response_code == 404:
                continue
            raise
        return {"id": commit.id, "signature_type": signature["signature_type"], "verification_status": signature["verification_status"]}
    raise LookupError("no signed commit among the 20 newest of main")


@step("commits", "list the merge requests of a commit")
def commits_merge_requests(s):
    project = s.project()
    merge_request = project.mergerequests.list(state="opened", per_page=1, get_all=False)[0]
    found = project.commits.get(merge_request.sha, lazy=True).merge_requests(get_all=True)
    return {"sha": merge_request.sha, "iid": merge_request.iid, "iids": [mr["iid"] for mr in found]}


@step("commits", "commit two files to a new branch")
def commits_create(s):
    files = {"python-gitlab/notes.md": "# Notes\n\nWritten by python-gitlab.\n", "python-gitlab/empty.txt": ""}
    commit = s.project().commits.create(
        {
            "branch": DEMO_BRANCH,
            "start_branch": "main",
            "commit_message": "Add the python-gitlab notes",
            "actions": [{"action": "create", "file_path": path, "content": content} for path, content in files.items()],
        }
    )
    s.made["commit"] = commit.id
    return {"id": commit.id, "title": commit.title, "branch": DEMO_BRANCH, "files": files}


@step("commits", "cherry-pick it onto main")
def commits_cherry_pick(s):
    project = s.project()
    project.commits.get(s.made["commit"], lazy=True).cherry_pick(branch="main")
    head = project.commits.list(ref_name="main", per_page=1, get_all=False)[0]
    return {"picked": s.made["commit"], "main_head": head.id, "title": head.title, "parent_ids": head.parent_ids}


@step("commits", "revert it on its branch")
def commits_revert(s):
    reverted = s.project().commits.get(s.made["commit"], lazy=True).revert(branch=DEMO_BRANCH)
    return {"id": reverted["id"], "title": reverted["title"], "branch": DEMO_BRANCH}


@step("commits", "comment on it")
def commits_comment(s):
    commit = s.project().commits.get(s.made["commit"], lazy=True)
    sent = {"note": "Looks right to python-gitlab", "path": "python-gitlab/notes.md", "line": 1, "line_type": "new"}
    commit.comments.create(sent)
    return {"sha": s.made["commit"], "sent": sent, "notes": [comment.note for comment in commit.comments.list(get_all=True)]}


@step("commits", "read its discussions")
def commits_discussions(s):
    discussions = s.project().commits.get(s.made["commit"], lazy=True).discussions.list(get_all=True)
    return {"sha": s.made["commit"], "bodies": [note["body"] for discussion in discussions for note in discussion.attributes["notes"]]}


@step("commits", "set and list a status")
def commits_status(s):
    commit = s.project().commits.get(s.made["commit"], lazy=True)
    sent = {"state": "success", "name": "python-gitlab", "description": "checked", "coverage": 92.5}
    commit.statuses.create(sent)
    statuses = commit.statuses.list(get_all=True)
    return {
        "sha": s.made["commit"],
        "sent": sent,
        "statuses": [{"name": status.name, "status": status.status, "coverage": status.coverage} for status in statuses],
    }


# --- Issues ----------------------------------------------------------------------------------------


@step("issues", "list open issues everywhere")
def issues_instance(s):
    return {"ids": ids(s.gl.issues.list(scope="all", state="opened", per_page=20, get_all=False))}


@step("issues", "list a group's open bugs")
def issues_group(s):
    issues = s.gl.groups.get("gitlab-org", lazy=True).issues.list(labels=["bug"], state="opened", per_page=20, get_all=False)
    return {"ids": ids(issues)}


@step("issues", "open an issue")
def issues_create(s):
    sent = {"title": "Filed by python-gitlab", "description": "Steps to reproduce: none.", "labels": ["bug", "backend"]}
    issue = s.project().issues.create(sent)
    s.made["issue"] = issue.iid
    return {"iid": issue.iid, "id": issue.id, "sent": sent, "title": issue.title, "description": issue.description, "labels": issue.labels}


@step("issues", "edit and close it")
def issues_update(s):
    issue = s.project().issues.get(s.made["issue"])
    sent = assign(issue, {"title": "Filed by python-gitlab (edited)", "labels": ["bug"], "state_event": "close"})
    issue.save()
    return {"iid": issue.iid, "sent": sent, "title": issue.title, "labels": issue.labels, "state": issue.state}


@step("issues", "comment on it")
def issues_note(s):
    issue = s.project().issues.get(s.made["issue"], lazy=True)
    sent = {"body": "A note from python-gitlab"}
    issue.notes.create(sent)
    return {"iid": s.made["issue"], "sent": sent, "bodies": [note.body for note in issue.notes.list(get_all=True)]}


@step("issues", "track time")
def issues_time(s):
    issue = s.project().issues.get(s.made["issue"], lazy=True)
    issue.time_estimate("3h30m")
    issue.add_spent_time("1h15m")
    stats = issue.time_stats()
    return {"iid": s.made["issue"]} | {
        key: stats[key] for key in ("time_estimate", "total_time_spent", "human_time_estimate", "human_total_time_spent")
    }


@step("issues", "reset the spent time")
def issues_time_reset(s):
    issue = s.project().issues.get(s.made["issue"], lazy=True)
    stats = issue.reset_spent_time()
    return {"iid": s.made["issue"], "time_estimate": stats["time_estimate"], "total_time_spent": stats["total_time_spent"]}


@step("issues", "read participants, related and closing merge requests")
def issues_related(s):
    issue = s.project().issues.get(6, lazy=True)
    return {
        "iid": 6,
        "participants": [user["username"] for user in issue.participants()],
        "related": [mr["iid"] for mr in issue.related_merge_requests()],
        "closed_by": [mr["iid"] for mr in issue.closed_by()],
    }


@step("issues", "read an issue by id and its user agent (admin)")
def issues_admin(s):
    issue = s.admin.issues.get(s.project().issues.get(1).id)
    detail = s.admin.projects.get(PROJECT, lazy=True).issues.get(1, lazy=True).user_agent_detail()
    return {"id": issue.id, "iid": issue.iid, "user_agent": detail["user_agent"]}


@step("issues", "upload and list a metric image of an incident")
def issues_metric_image(s):
    project = s.project()
    incident = project.issues.list(issue_type="incident", per_page=1, get_all=False)[0]
    path = f"/projects/{project.id}/issues/{incident.iid}/metric_images"
    uploaded = s.gl.http_post(path, post_data={"url": "https://grafana.example.com/d/1"}, files={"file": ("latency.png", PNG, "image/png")})
    listed = s.gl.http_get(path)
    return {"iid": incident.iid, "uploaded": uploaded["filename"], "listed": [image["filename"] for image in listed]}


@step("issues", "mark the issue as a to-do, then done")
def issues_todo(s):
    s.project().issues.get(s.made["issue"], lazy=True).todo()
    todos = s.gl.todos.list(get_all=True)
    mine = [todo for todo in todos if todo.target["iid"] == s.made["issue"] and todo.target["project_id"] == s.project().id]
    mine[0].mark_as_done()
    return {"pending_before": ids(todos), "done": mine[0].id, "pending_after": ids(s.gl.todos.list(get_all=True))}


@step("issues", "mark all to-dos as done")
def issues_todos_all_done(s):
    s.gl.todos.mark_all_as_done()
    return {"pending_after": ids(s.gl.todos.list(get_all=True))}


# --- Groups ----------------------------------------------------------------------------------------


@step("groups", "create a subgroup")
def groups_create(s):
    parent = s.gl.groups.get("opensource")
    sent = {"name": "Python Scripts", "path": "python-scripts", "parent_id": parent.id, "visibility": "internal"}
    group = s.gl.groups.create(sent)
    s.made["group"] = group.id
    return {
        "id": group.id,
        "sent": sent,
        "name": group.name,
        "path": group.path,
        "full_path": group.full_path,
        "visibility": group.visibility,
        "parent_id": group.parent_id,
    }


@step("groups", "update it")
def groups_update(s):
    group = s.gl.groups.get(s.made["group"])
    sent = assign(group, {"description": "Scripts that talk to GitLab", "request_access_enabled": False})
    group.save()
    return {"id": group.id, "sent": sent, "description": group.description, "request_access_enabled": group.request_access_enabled}


@step("groups", "update a group named by its full path")
def groups_update_by_path(s):
    group = s.gl.groups.get("opensource/tools", lazy=True)
    sent = assign(group, {"description": "Developer tooling, kept up by python-gitlab"})
    group.save()
    return {"full_path": "opensource/tools", "sent": sent, "description": group.description}


@step("groups", "list groups")
def groups_list(s):
    return {"ids": ids(s.gl.groups.list(get_all=True)), "top_level": ids(s.gl.groups.list(top_level_only=True, get_all=True))}


@step("groups", "read a group")
def groups_get(s):
    group = s.gl.groups.get("gitlab-org/backend")
    return {"id": group.id, "full_path": group.full_path, "visibility": group.visibility, "parent_id": group.parent_id}


@step("groups", "list subgroups and descendants")
def groups_tree(s):
    group = s.gl.groups.get("opensource", lazy=True)
    return {"subgroups": ids(group.subgroups.list(get_all=True)), "descendants": ids(group.descendant_groups.list(get_all=True))}


@step("groups", "list a group's projects with its subgroups'")
def groups_projects(s):
    projects = s.gl.groups.get("gitlab-org", lazy=True).projects.list(include_subgroups=True, order_by="id", sort="asc", get_all=True)
    return {"ids": ids(projects)}


# --- Projects --------------------------------------------------------------------------------------


@step("projects", "transfer a project to a group (admin)")
def projects_transfer(s):
    target = s.admin.groups.get("secret-lab")
    project = s.admin.projects.get("alice/notes")
    target.transfer_project(project.id)
    moved = s.admin.projects.get(project.id)
    return {
        "id": project.id,
        "group": target.full_path,
        "namespace": moved.namespace["full_path"],
        "path_with_namespace": moved.path_with_namespace,
    }


@step("projects", "list my projects")
def projects_membership(s):
    return {"ids": ids(s.gl.projects.list(membership=True, order_by="id", sort="asc", get_all=True))}


@step("projects", "read a project by its path")
def projects_get(s):
    project = s.gl.projects.get(PROJECT)
    return {
        "id": project.id,
        "path_with_namespace": project.path_with_namespace,
        "default_branch": project.default_branch,
        "namespace": project.namespace["full_path"],
    }


@step("projects", "list a user's and their starred projects")
def projects_of_user(s):
    user = s.gl.users.get(2)
    return {"projects": ids(user.projects.list(get_all=True)), "starred": ids(user.starred_projects.list(get_all=True))}


@step("projects", "list a group's shared projects")
def projects_shared(s):
    shared = s.gl.http_list("/groups/design/projects/shared", get_all=True)
    return {"ids": [project["id"] for project in shared]}


# --- Wikis -----------------------------------------------------------------------------------------


@step("wikis", "create a page")
def wikis_create(s):
    sent = {"title": "Python/How to script", "content": "Use python-gitlab.", "format": "markdown"}
    page = s.project().wikis.create(sent)
    s.made["wiki"] = page.slug
    return {"sent": sent, "slug": page.slug, "title": page.title, "content": page.content, "format": page.format}


@step("wikis", "edit it")
def wikis_update(s):
    page = s.project().wikis.get(s.made["wiki"])
    sent = assign(page, {"content": "Use python-gitlab 3.12.", "format": "asciidoc"})
    page.save()
    return {"sent": sent, "slug": page.slug, "content": page.content, "format": page.format}


@step("wikis", "create and delete a scratch page")
def wikis_delete(s):
    project = s.project()
    page = project.wikis.create({"title": "Python/Scratch", "content": "Short-lived."})
    project.wikis.delete(page.slug)
    return {"slug": page.slug}


@step("wikis", "upload an attachment")
def wikis_attachment(s):
    project = s.project()
    uploaded = s.gl.http_post(
        f"/projects/{project.id}/wikis/attachments", files={"file": ("notes.txt", b"wiki attachment\n", "text/plain")}
    )
    return {"sent": "notes.txt", "file_name": uploaded["file_name"], "file_path": uploaded["file_path"], "branch": uploaded["branch"]}


@step("wikis", "list pages with their content")
def wikis_list(s):
    pages = s.project().wikis.list(with_content=True, get_all=True)
    return {"pages": [{"slug": page.slug, "format": page.format, "content": page.content} for page in pages]}


@step("wikis", "read a page in a directory")
def wikis_get(s):
    page = s.project().wikis.get("docs/Getting-started")
    return {"slug": page.slug, "title": page.title, "content": page.content}


# --- Snippet repository storage moves (python-gitlab 3.12 has no manager for them) -------------------


@step("snippet storage moves", "move one snippet")
def moves_create(s):
    sent = {"destination_storage_name": "storage2"}
    move = s.admin.http_post("/snippets/7/repository_storage_moves", post_data=sent)
    return {
        "sent": sent,
        "id": move["id"],
        "snippet": move["snippet"]["id"],
        "source": move["source_storage_name"],
        "destination": move["destination_storage_name"],
    }


@step("snippet storage moves", "move every snippet off a shard")
def moves_bulk(s):
    sent = {"source_storage_name": "storage2", "destination_storage_name": "storage3"}
    answer = s.admin.http_post("/snippet_repository_storage_moves", post_data=sent)
    return {"sent": sent, "message": answer["message"]}


@step("snippet storage moves", "list every move")
def moves_list(s):
    moves = s.admin.http_list("/snippet_repository_storage_moves", get_all=True)
    return {"ids": [move["id"] for move in moves]}


@step("snippet storage moves", "read a snippet's moves and one move")
def moves_get(s):
    of_snippet = s.admin.http_list("/snippets/1/repository_storage_moves", get_all=True)
    move = s.admin.http_get(f"/snippet_repository_storage_moves/{of_snippet[0]['id']}")
    same = s.admin.http_get(f"/snippets/1/repository_storage_moves/{of_snippet[0]['id']}")
    return {"ids": [m["id"] for m in of_snippet], "move": move, "same": same == move}


# --- SSH keys ----------------------------------------------------------------------------------------


def sha256_fingerprint(public_key):
    """What `ssh-keygen -l -E sha256` prints for a public key line."""
    blob = base64.b64decode(public_key.split()[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def md5_fingerprint(public_key):
    digest = hashlib.md5(base64.b64decode(public_key.split()[1])).hexdigest()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


@step("ssh keys", "read a key and its owner")
def keys_get(s):
    key = s.admin.keys.get(1)
    s.made["key"] = {"id": key.id, "key": key.key}
    return {"id": key.id, "title": key.title, "key": key.key, "user": key.user["username"]}


@step("ssh keys", "find it by its SHA256 fingerprint")
def keys_sha256(s):
    fingerprint = sha256_fingerprint(s.made["key"]["key"])
    key = s.admin.keys.get(fingerprint=fingerprint)
    return {"looked_up": s.made["key"]["id"], "fingerprint": fingerprint, "id": key.id}


@step("ssh keys", "find a deploy key by its MD5 fingerprint")
def keys_deploy(s):
    deploy = s.admin.keys.get(7)
    fingerprint = md5_fingerprint(deploy.key)
    key = s.admin.keys.get(fingerprint=fingerprint)
    return {
        "looked_up": deploy.id,
        "fingerprint": fingerprint,
        "id": key.id,
        "projects": sorted(link["project_id"] for link in key.deploy_keys_projects),
    }


# --- Submodules --------------------------------------------------------------------------------------


@step("submodules", "point a submodule at another commit")
def submodules_update(s):
    project = s.gl.projects.get(PROJECT, lazy=True)
    current = next(entry["id"] for entry in project.repository_tree(path="vendor", get_all=True) if entry["path"] == "vendor/gitaly")
    gitaly = s.gl.projects.get("gitlab-org/gitaly")
    target = next(commit.id for commit in gitaly.commits.list(ref_name="main", per_page=5, get_all=False) if commit.id != current)
    message = "Bump gitaly"
    commit = project.update_submodule(submodule="vendor/gitaly", branch="main", commit_sha=target, commit_message=message)
    after = next(entry["id"] for entry in project.repository_tree(path="vendor", get_all=True) if entry["path"] == "vendor/gitaly")
    return {"before": current, "target": target, "message": message, "commit": commit["id"], "title": commit["title"], "after": after}


# --- Job artifacts -----------------------------------------------------------------------------------


def demo_job(s, name, pipeline_id):
    """The job of that name in that pipeline of the main project."""
    jobs = s.project().pipelines.get(pipeline_id).jobs.list(get_all=True)
    return s.project().jobs.get(next(job.id for job in jobs if job.name == name))


@step("job artifacts", "download a job's archive")
def artifacts_archive(s):
    job = demo_job(s, "compile", 20001)
    data = job.artifacts()
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {"job": job.id, "sha256": hashlib.sha256(data).hexdigest(), "names": sorted(archive.namelist())}


@step("job artifacts", "read one file of it")
def artifacts_file(s):
    job = demo_job(s, "compile", 20001)
    return {"job": job.id, "path": "build/version.txt", "text": job.artifact("build/version.txt").decode()}


@step("job artifacts", "download the latest of a ref")
def artifacts_ref(s):
    project = s.project()
    data = project.artifacts.download(ref_name="main", job="build-docs")
    raw = project.artifacts.raw("main", "docs/index.html", "build-docs")
    return {
        "sha256": hashlib.sha256(data).hexdigest(),
        "names": sorted(zipfile.ZipFile(io.BytesIO(data)).namelist()),
        "index": raw.decode(),
    }


@step("job artifacts", "keep them")
def artifacts_keep(s):
    job = demo_job(s, "build-docs", 20001)
    before = job.artifacts_expire_at
    job.keep_artifacts()
    job.refresh()
    return {"job": job.id, "expire_at_before": before, "expire_at_after": job.artifacts_expire_at}


@step("job artifacts", "delete them")
def artifacts_delete(s):
    job = demo_job(s, "coverage-report", 20002)
    job.delete_artifacts()
    return {"job": job.id}


# --- Invitations -------------------------------------------------------------------------------------


def invited(source):
    return [invitation.invite_email for invitation in source.invitations.list(get_all=True)]


@step("invitations", "invite two people to a group")
def invitations_create(s):
    group = s.gl.groups.get("opensource", lazy=True)
    sent = {"email": "py.one@example.com,py.two@example.com", "access_level": 30}
    answer = group.invitations.create(sent)
    return {"sent": sent, "status": answer.status, "emails": invited(group)}


@step("invitations", "change one invitation's role and expiry")
def invitations_update(s):
    group = s.gl.groups.get("opensource", lazy=True)
    sent = {"access_level": 40, "expires_at": "2027-01-31T00:00:00Z"}
    changed = group.invitations.update("py.one@example.com", sent)
    return {"email": "py.one@example.com", "sent": sent, "access_level": changed["access_level"], "expires_at": changed["expires_at"]}


@step("invitations", "withdraw the other")
def invitations_delete(s):
    group = s.gl.groups.get("opensource", lazy=True)
    group.invitations.delete("py.two@example.com")
    return {"withdrawn": "py.two@example.com", "emails": invited(group)}


@step("invitations", "invite to a project and withdraw")
def invitations_project(s):
    project = s.project()
    email = "py.three@example.com"
    project.invitations.create({"email": email, "access_level": 20})
    before = invited(project)
    project.invitations.delete(email)
    return {"email": email, "before": before, "after": invited(project)}


# --- Running -----------------------------------------------------------------------------------------


def describe(error):
    """What a step's caller needs to see of its failure: the class, the message, the HTTP status."""
    described = {"class": type(error).__name__, "message": str(error)}
    if isinstance(error, gitlab.exceptions.GitlabError):
        described["status"] = error.response_code
        described["message"] = str(error.error_message)
    if isinstance(error, KeyError):
        described["message"] = f"missing key {error}"
    return described


def run(session, domains):
    for domain, name, function in STEPS:
        if domains and domain not in domains:
            continue
        line = {"domain": domain, "step": name}
        try:
            line["values"] = function(session)
            line["ok"] = True
        except Exception as error:  # one step's failure is reported, and the next step runs
            line["ok"] = False
            line["error"] = describe(error)
        print(json.dumps(line), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", nargs="?", default=os.environ.get("GITLAB_URL"))
    parser.add_argument("--token", default=os.environ.get("GITLAB_TOKEN"))
    parser.add_argument("--admin-token", default=os.environ.get("GITLAB_ADMIN_TOKEN"))
    parser.add_argument("--domain", action="append", default=[], help="run only this domain's steps (repeatable)")
    args = parser.parse_args()
    if not args.url or not args.token or not args.admin_token:
        parser.error("the URL, --token and --admin-token (or GITLAB_URL, GITLAB_TOKEN, GITLAB_ADMIN_TOKEN) are required")
    run(Session(args.url, args.token, args.admin_token), set(args.domain))


if __name__ == "__main__":
    sys.exit(main())
