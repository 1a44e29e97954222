import './album.policy';
import './album.type';
import './album.queries';
import './album.mutations';
